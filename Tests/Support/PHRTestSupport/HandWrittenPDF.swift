import Foundation

/// A PDF written by hand from its objects (numbered from 1, the first the catalog), with the
/// exact cross-reference offsets a reader checks: for tests that need a PDF of a precise,
/// unusual shape (a blank page, a page that runs JavaScript).
public enum HandWrittenPDF {
    public static func bytes(objects: [String], version: String = "1.4") -> [UInt8] {
        var pdf = "%PDF-\(version)\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(pdf.utf8.count)
            pdf += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = pdf.utf8.count
        pdf += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { pdf += String(format: "%010d 00000 n \n", offset) }
        pdf += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Array(pdf.utf8)
    }
}
