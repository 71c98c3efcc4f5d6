// The helpers the test targets share (Tests/Support/PHRTestSupport: the corpus, the package root,
// loopback HTTP and TLS servers, CRC-32), seen by every file of this target.
@_exported import PHRTestSupport
