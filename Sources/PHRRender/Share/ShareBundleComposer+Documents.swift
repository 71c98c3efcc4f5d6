import PHRModel
import PHRTypesetting

/// The manifest of included documents, and their pages embedded one per bundle page.
extension ShareBundleComposer {
    func drawManifest(_ flow: DocumentFlow) {
        if documents.isEmpty {
            // Said to the clinician: what is (not) here, never how to run phr (phr share tells the user).
            noneRecorded(flow, options.defaultDocumentWindow
                         ? "No documents are included (none dated in the last 12 months)."
                         : "No documents are included.")
        } else {
            let rows: [Table.Row] = documents.enumerated().map { index, bundled in
                let document = bundled.document
                let origin = [document.fileName, document.provider].compactMap { $0 }.joined(separator: " · ")
                return .values([
                    Table.Cell("\(index + 1)", tone: .muted),
                    .markup("<b>\(escapeMarkup(document.title))</b>\n<span size=\"smaller\" foreground=\"\(Color.muted.markupValue)\">"
                            + "\(escapeMarkup(origin))</span>"),
                    Table.Cell(document.type),
                    Table.Cell(document.date ?? BundleStyle.missing, tone: document.date == nil ? .muted : .normal),
                    Table.Cell("\(bundled.pageCount)"),
                    // Two lines of 32 digits: the column stays narrow and the halves are easy to compare.
                    Table.Cell(document.sha256.prefix(32) + "\n" + document.sha256.dropFirst(32), family: BundleStyle.mono.family, size: 6.6),
                ])
            }
            flow.table(Table(columns: [
                Table.Column("#", weight: 0.35), Table.Column("Document", weight: 2.7), Table.Column("Type", weight: 1.05),
                Table.Column("Date", weight: 1.05), Table.Column("Pages", weight: 0.65, alignment: .right),
                Table.Column("SHA-256 of the original", weight: 2.55),
            ], rows: rows, fontSize: 8.8, style: BundleStyle.table), after: 6)
            flow.paragraph(.plain("Each document follows in full, one original page per page, in the order above. The SHA-256 "
                                  + "fingerprint is that of the original file as it was added to phr: a copy exported with "
                                  + "'phr doc export' gives the same value with sha256sum."),
                           style: BundleStyle.small.spaced(1.1), after: 4)
        }
        if !content.skippedDocuments.isEmpty {
            let items = content.skippedDocuments.map { "\($0.title) (\($0.id)): \($0.reason)" }
            flow.paragraph(.markup("<b>Not included:</b> " + escapeMarkup(items.joined(separator: "; ")) + "."),
                           style: BundleStyle.small.spaced(1.1), after: 4)
        }
    }

    func drawDocumentPages(_ flow: DocumentFlow, under parent: Int?) throws {
        for (index, bundled) in documents.enumerated() {
            let document = bundled.document
            documentFirstPages.append(flow.pageNumber + 1)
            for page in 0..<bundled.pageCount {
                let shown: Size
                switch bundled.content {
                case .pdf(let source):
                    guard let size = source.pageSize(page) else {
                        throw ShareError.documentNotEmbeddable(id: document.id, reason: "page \(page + 1) of its original cannot be read")
                    }
                    shown = size
                case .images(let pages):
                    let image = try pages.image(page)
                    shown = Size(width: Double(image.displayWidth), height: Double(image.displayHeight))
                }
                let detail = [document.type, document.date, "page \(page + 1) of \(bundled.pageCount)"].compactMap { $0 }
                flow.decoration = HeadedPages(footer: footer, title: "Document \(index + 1) of \(documents.count) · \(document.title)",
                                              detail: detail.joined(separator: " · "))
                flow.pageBreak(frame: BundleStyle.documentFrame(options.paper, landscape: shown.width > shown.height))
                if page == 0 {
                    flow.bookmark(Self.outlineTitle(document), parent: parent)
                    flow.canvas.addDestination(named: "document-\(document.id)", y: flow.y)
                }
                let area = Rect(x: flow.left, y: flow.y, width: flow.width, height: flow.bottom - flow.y)
                let placed: Rect?
                switch bundled.content {
                case .pdf(let source):
                    placed = flow.canvas.drawPDFPage(source, index: page, fittingIn: area)
                case .images(let pages):
                    do {
                        placed = try flow.canvas.drawImage(try pages.image(page), fittingIn: area)
                    } catch let error as ShareError {
                        throw error
                    } catch {
                        throw ShareError.documentNotEmbeddable(id: document.id, reason: "its image cannot be drawn (\(error.localizedDescription))")
                    }
                }
                guard let placed else {
                    throw ShareError.documentNotEmbeddable(id: document.id, reason: "page \(page + 1) of its original cannot be drawn")
                }
                // A hairline shows where the original page ends, since most pages are white too.
                flow.canvas.rectangle(x: placed.x, y: placed.y, width: placed.width, height: placed.height,
                                      stroke: .hairline, lineWidth: 0.5)
            }
        }
    }
}
