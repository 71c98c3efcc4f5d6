/// Stacks blocks of content down the page and starts a new page when the next block does not fit.
///
/// Each new page is prepared by the current `decoration` (headers, footers, page numbers), which
/// may change between pages, as may the paper (`pageBreak(frame:)`, for a landscape page). Totals
/// such as "page 3 of 14" need a layout first: `PaginatedRenderer` runs the composition twice and
/// hands the second pass what the first counted (`firstPass`).
public final class DocumentFlow {
    public let canvas: PDFCanvas
    public private(set) var frame: PageFrame
    /// Decorates the pages begun from now on.
    public var decoration: any PageDecoration
    /// What a counting pass over the same composition found; nil during that pass.
    public let firstPass: Pagination?
    public private(set) var pageNumber = 0
    /// The top of the free space on the current page.
    public var y = 0.0
    /// Where content started on the current page, below the decoration.
    public private(set) var contentTop = 0.0
    private var bookmarks: [Pagination.Bookmark] = []
    /// cairo's IDs of the outline entries, parallel to `bookmarks`.
    private var outlineIDs: [Int] = []

    public var left: Double { frame.marginLeft }
    public var right: Double { frame.width - frame.marginRight }
    public var width: Double { right - left }
    public var bottom: Double { frame.height - frame.marginBottom }
    /// Pages in the finished document, or 0 while counting.
    public var pageCount: Int { firstPass?.pageCount ?? 0 }
    /// True when nothing will be seen of this pass (see `PDFCanvas.isDiscarding`).
    public var isCounting: Bool { canvas.isDiscarding }

    /// Starts the first page. The canvas must have been created with `frame`'s size.
    public init(canvas: PDFCanvas, frame: PageFrame, decoration: any PageDecoration = PlainPages(), firstPass: Pagination? = nil) {
        self.canvas = canvas
        self.frame = frame
        self.decoration = decoration
        self.firstPass = firstPass
        beginPage()
    }

    /// Ends the current page and starts the next one, on other paper when `frame` is given.
    public func pageBreak(frame newFrame: PageFrame? = nil) {
        canvas.showPage()
        if let newFrame, newFrame.size != frame.size {
            canvas.setPageSize(width: newFrame.width, height: newFrame.height)
        }
        if let newFrame { frame = newFrame }
        beginPage()
    }

    /// Moves to a new page unless `height` points are still free on this one.
    ///
    /// Nothing happens on a page that has no content yet: a block taller than a whole page is
    /// drawn where it is (the text blocks and tables of this library split themselves instead).
    public func ensureSpace(_ height: Double) {
        if y + height > bottom, y > contentTop {
            pageBreak()
        }
    }

    /// The height content can have on a fresh page of the current frame and decoration.
    public var fullPageHeight: Double { bottom - contentTop }

    public func space(_ points: Double) {
        y += points
    }

    /// Adds an outline entry for what starts at the current position and returns its ID, to
    /// nest entries under it (`parent`). Every pass records where its entries landed
    /// (`Pagination.bookmarks`), so a second pass can print a table of contents.
    @discardableResult
    public func bookmark(_ title: String, parent: Int? = nil, open: Bool = false) -> Int {
        let parentIndex = parent.map { $0 - 1 }
        if let parentIndex { precondition(bookmarks.indices.contains(parentIndex), "no bookmark \(parent!) to nest under") }
        let level = parentIndex.map { bookmarks[$0].level + 1 } ?? 0
        let outlineParent = parentIndex.map { outlineIDs[$0] } ?? PDFCanvas.outlineRoot
        outlineIDs.append(canvas.addOutlineItem(title, page: pageNumber, y: y, parent: outlineParent, open: open))
        bookmarks.append(Pagination.Bookmark(title: title, page: pageNumber, level: level))
        return bookmarks.count
    }

    /// Emits the last page and returns what this pass laid out. Call once, after the last block.
    @discardableResult
    public func finish() -> Pagination {
        canvas.showPage()
        return Pagination(pageCount: pageNumber, bookmarks: bookmarks)
    }

    private func beginPage() {
        pageNumber += 1
        let top = decoration.decorate(PageInfo(number: pageNumber, count: pageCount, frame: frame), on: canvas)
        y = top
        contentTop = top
    }
}

/// What one pass over a composition laid out: how many pages, and where its bookmarks landed.
public struct Pagination: Sendable, Equatable {
    public struct Bookmark: Sendable, Equatable {
        public var title: String
        /// From 1.
        public var page: Int
        /// 0 for top-level entries, 1 for entries nested under one, and so on.
        public var level: Int
    }

    public var pageCount: Int
    public var bookmarks: [Bookmark]

    /// The page of the first bookmark titled `title`.
    public func page(of title: String) -> Int? {
        bookmarks.first { $0.title == title }?.page
    }
}
