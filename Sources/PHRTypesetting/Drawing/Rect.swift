/// A width and height in points: of laid-out text, of a page, of an image as placed.
public struct Size: Sendable, Equatable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// ISO 216 A4, 210 x 297 mm.
    public static let a4 = Size(width: 595.276, height: 841.89)
    /// US Letter, 8.5 x 11 in.
    public static let letter = Size(width: 612, height: 792)
    /// ISO/IEC 7810 ID-1, the bank-card and wallet-card size: 85.6 x 53.98 mm.
    public static let idCard = Size(width: 242.646, height: 153.014)

    /// The same paper turned sideways (the longer side horizontal).
    public var landscape: Size { Size(width: max(width, height), height: min(width, height)) }
    /// The same paper upright (the longer side vertical).
    public var portrait: Size { Size(width: min(width, height), height: max(width, height)) }

    /// Points in `millimetres`.
    public static func points(millimetres: Double) -> Double { millimetres * 72 / 25.4 }
}

/// A rectangle in page coordinates (points, origin at the top-left).
public struct Rect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The largest rectangle of `size`'s proportions that fits inside this one, centred, scaled
    /// by at most `maximumScale`.
    public func fitting(_ size: Size, maximumScale: Double = .infinity) -> (rect: Rect, scale: Double) {
        guard size.width > 0, size.height > 0 else { return (Rect(x: x, y: y, width: 0, height: 0), 0) }
        let scale = min(width / size.width, height / size.height, maximumScale)
        let fitted = Rect(x: x + (width - size.width * scale) / 2, y: y + (height - size.height * scale) / 2,
                          width: size.width * scale, height: size.height * scale)
        return (fitted, scale)
    }
}
