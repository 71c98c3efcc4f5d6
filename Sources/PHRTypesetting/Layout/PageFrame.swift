/// A page's paper size and margins: where flowing content may go.
public struct PageFrame: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var marginLeft: Double
    public var marginRight: Double
    public var marginTop: Double
    public var marginBottom: Double

    public init(width: Double, height: Double, marginLeft: Double, marginRight: Double, marginTop: Double,
                marginBottom: Double) {
        self.width = width
        self.height = height
        self.marginLeft = marginLeft
        self.marginRight = marginRight
        self.marginTop = marginTop
        self.marginBottom = marginBottom
    }

    /// `paper` with the same `margin` on every side.
    public init(paper: Size, margin: Double) {
        self.init(width: paper.width, height: paper.height, marginLeft: margin, marginRight: margin,
                  marginTop: margin, marginBottom: margin)
    }

    public var size: Size { Size(width: width, height: height) }
    /// The area inside the margins.
    public var content: Rect {
        Rect(x: marginLeft, y: marginTop, width: width - marginLeft - marginRight, height: height - marginTop - marginBottom)
    }

    /// The same margins on other paper.
    public func with(paper: Size) -> PageFrame {
        var copy = self
        copy.width = paper.width
        copy.height = paper.height
        return copy
    }
}

/// What a new page looks like before any content: running headers, footers with page numbers,
/// watermarks. The flow calls it at the start of every page.
public protocol PageDecoration {
    /// Draws the page's fixed parts and returns the y at which content starts (at least the top
    /// margin). `page.count` is 0 during a counting pass, when totals are not known yet.
    func decorate(_ page: PageInfo, on canvas: PDFCanvas) -> Double
}

/// The page being started, for `PageDecoration`.
public struct PageInfo: Sendable {
    /// From 1.
    public var number: Int
    /// Pages in the finished document, or 0 while they are being counted.
    public var count: Int
    public var frame: PageFrame

    /// "3 / 14", or "3" while the total is unknown.
    public var label: String { count > 0 ? "\(number) / \(count)" : "\(number)" }
}

/// A decoration that draws nothing: content starts at the top margin.
public struct PlainPages: PageDecoration {
    public init() {}

    public func decorate(_ page: PageInfo, on canvas: PDFCanvas) -> Double {
        page.frame.marginTop
    }
}
