import CPHRPoppler
import PHRTypesetting

/// Draws an organisation's emblem in a `size`-point square whose top-left corner is (`x`, `y`).
extension PDFCanvas {
    func drawEmblem(_ emblem: Organization.Emblem, x: Double, y: Double, size: Double, color: Color) {
        let center = (x: x + size / 2, y: y + size / 2)
        switch emblem {
        case .cross:
            rectangle(x: x, y: y, width: size, height: size, radius: size * 0.22, fill: color)
            let bar = size * 0.2
            let arm = size * 0.6
            rectangle(x: center.x - bar / 2, y: center.y - arm / 2, width: bar, height: arm, fill: .white)
            rectangle(x: center.x - arm / 2, y: center.y - bar / 2, width: arm, height: bar, fill: .white)
        case .rack:
            circle(centerX: center.x, centerY: center.y, radius: size / 2, fill: color)
            let barWidth = size * 0.12
            for (index, height) in [0.44, 0.56, 0.36].enumerated() {
                let barX = center.x - size * 0.2 + Double(index) * size * 0.16
                rectangle(x: barX, y: center.y + size * 0.24 - size * height, width: barWidth,
                          height: size * height, radius: barWidth / 2, fill: .white)
            }
        case .rings:
            circle(centerX: center.x, centerY: center.y, radius: size / 2, fill: color)
            circle(centerX: center.x, centerY: center.y, radius: size * 0.34, fill: .white)
            circle(centerX: center.x, centerY: center.y, radius: size * 0.24, fill: color)
            circle(centerX: center.x, centerY: center.y, radius: size * 0.1, fill: .white)
        case .shield:
            cairo_save(context)
            cairo_move_to(context, x + size * 0.1, y + size * 0.08)
            cairo_line_to(context, x + size * 0.9, y + size * 0.08)
            cairo_line_to(context, x + size * 0.9, y + size * 0.5)
            cairo_curve_to(context, x + size * 0.9, y + size * 0.78, x + size * 0.6, y + size * 0.92,
                           x + size * 0.5, y + size)
            cairo_curve_to(context, x + size * 0.4, y + size * 0.92, x + size * 0.1, y + size * 0.78,
                           x + size * 0.1, y + size * 0.5)
            cairo_close_path(context)
            setColor(color)
            cairo_fill(context)
            cairo_restore(context)
            smoothStroke(through: [(x + size * 0.3, y + size * 0.48), (x + size * 0.45, y + size * 0.63),
                                   (x + size * 0.72, y + size * 0.32)],
                         width: size * 0.09, color: .white)
        }
    }
}
