import Glibc

/// Test-only pauses at named points of commands that write, so the tests can interrupt a
/// command exactly where it is most fragile (a partial export on disk, a blob stored but not
/// committed, a staging directory filled but not renamed) instead of hoping a random kill lands
/// there.
///
/// Debug builds only: with `PHR_TEST_PAUSE=<point>` in the environment, reaching that point
/// writes `phr-test: paused at <point>` to stderr and sleeps until the process is killed, or,
/// with `PHR_TEST_PAUSE_UNTIL=<path>`, until that file exists, and then goes on (a test runs
/// another command in between: a removal racing a reading). Release builds compile every call
/// to nothing.
public enum TestPause {
    public enum Point: String, Sendable {
        /// An `OutputFile` has received its first bytes and is not complete.
        case output
        /// A blob write in blobs/tmp/ has started.
        case blobPart = "blob-part"
        /// `doc add` stored a blob and has not committed its document.
        case blobStored = "blob-stored"
        /// `doc rm` committed the removal and has not removed the blob file.
        case removalCommitted = "removal-committed"
        /// `init` or `restore` filled its staging directory and has not renamed it.
        case staged
        /// `doc add` staged a document's text in the database and has not committed it.
        case textStaged = "text-staged"
        /// `doc add` printed a committed file's line (the first in order), before any other.
        case reported
        /// `doc reindex` has read a document and has not stored what it read.
        case documentRead = "document-read"
        /// `lab extract` has read a report's results and has not saved the accepted ones.
        case resultsRead = "results-read"
        /// A phone-export import has written its 100th new entry in its open transaction.
        case entriesWritten = "entries-written"
        /// `phr sync` has uploaded the documents' blobs and has not written its change log.
        case syncBlobsPushed = "sync-blobs-pushed"
        /// `phr sync` has written half of its change logs (or its only one) to the remote and not
        /// committed that they are sent.
        case syncLogWritten = "sync-log-written"
        /// `phr sync` has applied half of the changes it pulled, inside the transaction that
        /// applies them all.
        case syncApplying = "sync-applying"
    }

    #if DEBUG
    nonisolated(unsafe) private static var point: String? = {
        guard let value = getenv("PHR_TEST_PAUSE") else { return nil }
        return String(cString: value)
    }()
    #endif

    @inline(__always)
    public static func here(_ point: Point) {
        #if DEBUG
        guard Self.point == point.rawValue else { return }
        Self.point = nil
        let line = "phr-test: paused at \(point.rawValue)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        if let until = getenv("PHR_TEST_PAUSE_UNTIL") {
            while access(until, F_OK) != 0 { usleep(20_000) }
            return
        }
        while true { sleep(60) }
        #endif
    }
}
