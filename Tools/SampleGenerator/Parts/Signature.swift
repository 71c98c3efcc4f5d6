import PHRTypesetting

/// A signature block: a hand-drawn stroke over a line, the signer's name and a caption beneath.
///
/// The stroke is a fixed list of points, so it is identical on every run.
struct Signature {
    var name: String
    /// Credentials and role, e.g. "MD · Family Medicine · NPI 0000000000".
    var role: String
    /// A line such as "Electronically signed 05/13/2025 09:41".
    var caption: String?
    var ink: Color = Color(hex: 0x1F3A93)

    /// The shape of a quick cursive signature, in a 100 × 30 box.
    private static let stroke: [(x: Double, y: Double)] = [
        (0, 22), (6, 8), (10, 4), (12, 14), (9, 26), (15, 18), (22, 12), (26, 20), (30, 14),
        (36, 18), (40, 10), (44, 20), (50, 12), (56, 19), (62, 9), (66, 17), (72, 13), (80, 18),
        (88, 11), (100, 15),
    ]

    /// Draws the block `width` points wide at the current position, aligned to the right margin
    /// when `trailing` is set.
    func draw(in flow: DocumentFlow, width: Double = 210, trailing: Bool = false) {
        let canvas = flow.canvas
        flow.ensureSpace(80)
        let x = trailing ? flow.right - width : flow.left
        let strokeWidth = width * 0.55
        let points = Self.stroke.map { (x: x + 6 + $0.x * strokeWidth / 100, y: flow.y + $0.y * 0.95) }
        canvas.smoothStroke(through: points, width: 1.1, color: ink)
        // A second, shorter flourish under the name, as people add when they sign quickly.
        canvas.smoothStroke(through: [(x + 14, flow.y + 31), (x + strokeWidth * 0.6, flow.y + 28.5),
                                      (x + strokeWidth * 0.95, flow.y + 30)],
                            width: 0.8, color: ink)
        flow.y += 36
        canvas.line(fromX: x, y: flow.y, toX: x + width, y: flow.y, width: 0.6, color: .ink)
        flow.y += 3
        let nameSize = canvas.drawText(.plain(name), x: x, y: flow.y, width: width, style: .body.emboldened)
        flow.y += nameSize.height
        let roleSize = canvas.drawText(.plain(role), x: x, y: flow.y, width: width, style: .small)
        flow.y += roleSize.height
        if let caption {
            let captionSize = canvas.drawText(.plain(caption), x: x, y: flow.y, width: width, style: .small.italicized)
            flow.y += captionSize.height
        }
        flow.y += 8
    }
}
