import Foundation
import Testing
@testable import PHRCore

/// The share bundle's lab trend chart as a person sees it: the page rendered by poppler to
/// pixels, the shaded reference band found by its colour, and the out-of-range values (red
/// dots) on the right side of it.
@Suite struct ShareResultsChartTests {
    /// Groups of touching points (8-connected), each as its centre.
    static func blobs(_ points: [(x: Int, y: Int)]) -> [(x: Double, y: Double, size: Int)] {
        var remaining = Set(points.map { $0.y * 100_000 + $0.x })
        var result: [(x: Double, y: Double, size: Int)] = []
        while let seed = remaining.first {
            remaining.remove(seed)
            var stack = [seed]
            var members: [Int] = []
            while let key = stack.popLast() {
                members.append(key)
                let (x, y) = (key % 100_000, key / 100_000)
                for dy in -1...1 {
                    for dx in -1...1 where remaining.contains((y + dy) * 100_000 + x + dx) {
                        remaining.remove((y + dy) * 100_000 + x + dx)
                        stack.append((y + dy) * 100_000 + x + dx)
                    }
                }
            }
            let xs = members.map { Double($0 % 100_000) }
            let ys = members.map { Double($0 / 100_000) }
            result.append((xs.reduce(0, +) / Double(xs.count), ys.reduce(0, +) / Double(ys.count), members.count))
        }
        return result
    }

    @Test func theResultsChartShadesTheReferenceBandAndMarksOutOfRangeValues() throws {
        let fixture = try ShareFixture(label: "share-band", documents: [], records: false)
        defer { fixture.remove() }
        let store = LabStore(vault: fixture.vault, profile: fixture.profile, time: fixture.time)
        // Ferritin against 30-150 ng/mL: two values below the band, one in it, the latest above it.
        for (value, date) in [("8", "2024-09-02"), ("12", "2024-12-03"), ("60", "2025-03-04"), ("200", "2025-06-02")] {
            var input = LabStore.Input(name: "Ferritin", value: value, unit: "ng/mL")
            input.range = "30-150"
            input.date = date
            try store.add(input)
        }
        var request = fixture.request()
        request.sections = [.results]
        let result = try fixture.write(request)

        let directory = try TestSupport.temporaryDirectory("band")
        defer { TestSupport.remove(directory) }
        let dpi = 100.0
        let rendered = try PDFTools.run("pdftoppm", ["-r", "\(Int(dpi))", result.path, "\(directory)/page"])
        #expect(rendered.status == 0, "pdftoppm: \(rendered.stderr)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".ppm") }.sorted()
        var charted: [(page: String, band: [(x: Int, y: Int)], image: PNMImage)] = []
        for page in pages {
            let image = try PNMImage(path: "\(directory)/\(page)")
            let band = image.points(near: 0xDCEFD9, tolerance: 4)
            if !band.isEmpty { charted.append((page, band, image)) }
        }
        // One page holds the chart.
        try #require(charted.count == 1, "pages with the band's colour: \(charted.map(\.page))")
        let (_, band, image) = charted[0]
        let (left, right) = (band.map(\.x).min()!, band.map(\.x).max()!)
        let (top, bottom) = (band.map(\.y).min()!, band.map(\.y).max()!)
        // A band, not a speck: most of a third of the content width (the value axis's labels take
        // the rest) and the height of 30-150 on the chart's axis (round ticks 0 to 300 fitting
        // 8 to 200, on a plot 51 points high: 20.4 points).
        let point = dpi / 72
        let axis = try #require(AxisScale.fitting([8, 12, 60, 200], bandLow: 30, bandHigh: 150, ticks: 5))
        #expect(axis.low == 0 && axis.high == 300 && axis.ticks == [0, 100, 200, 300])
        #expect(Double(right - left) > 125 * point)
        #expect(abs(Double(bottom - top) - 120 / 300 * 51 * point) < 3 * point, "band \(top)...\(bottom)")
        // Red dots beside the band: the chart's out-of-range values, none inside the band.
        let red = image.points(near: 0xC0392B, tolerance: 40).filter { spot in
            spot.x >= left && spot.x <= right && Double(spot.y) > Double(top) - 20 * point && Double(spot.y) < Double(bottom) + 20 * point
        }
        let dots = Self.blobs(red).filter { $0.size >= 6 }
        let above = dots.filter { $0.y < Double(top) }
        let below = dots.filter { $0.y > Double(bottom) }
        #expect(above.count == 1, "dots above the band: \(above)")
        #expect(below.count == 2, "dots below the band: \(below)")
        #expect(dots.count == 3, "red dots: \(dots)")
        // Oldest on the left: the two low values come before the high one.
        let high = try #require(above.first)
        #expect(below.allSatisfy { $0.x < high.x })
    }
}
