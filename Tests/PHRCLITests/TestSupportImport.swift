// The helpers both test targets share (Tests/Support/PHRTestSupport: the corpus), seen by every
// file of this target.
@_exported import PHRTestSupport
