import PHRTypesetting

/// The top of a document's first page: emblem, issuer, contact line, document title, accent rule.
struct Letterhead {
    var organization: Organization
    /// The document's name, set large on the right ("Prescription", "Discharge summary").
    var title: String
    /// A short line under the title ("Electronic prescription · patient copy").
    var subtitle: String?

    func draw(in flow: DocumentFlow) {
        let canvas = flow.canvas
        let top = flow.y
        let emblemSize = 34.0
        canvas.drawEmblem(organization.emblem, x: flow.left, y: top, size: emblemSize, color: organization.accent)

        let textLeft = flow.left + emblemSize + 10
        let titleWidth = flow.width * 0.38
        let nameWidth = flow.right - titleWidth - textLeft
        let nameStyle = TextStyle(size: 15.5, bold: true, color: organization.accent)
        let nameSize = canvas.drawText(.plain(organization.name), x: textLeft, y: top - 2, width: nameWidth, style: nameStyle)
        canvas.drawText(.plain(organization.tagline), x: textLeft, y: top - 2 + nameSize.height,
                        width: nameWidth, style: .small.sized(8.5))

        let titleStyle = TextStyle(size: 14, bold: true, color: .ink, alignment: .right)
        let titleSize = canvas.drawText(.plain(title), x: flow.right - titleWidth, y: top - 2,
                                        width: titleWidth, style: titleStyle)
        if let subtitle {
            canvas.drawText(.plain(subtitle), x: flow.right - titleWidth, y: top - 2 + titleSize.height,
                            width: titleWidth, style: .small.sized(8).aligned(.right))
        }

        var y = top + emblemSize + 6
        let contact = canvas.drawText(.plain(organization.contactLine), x: flow.left, y: y, width: flow.width,
                                      style: .small.sized(8))
        y += contact.height + 5
        canvas.line(fromX: flow.left, y: y, toX: flow.right, y: y, width: 2.2, color: organization.accent)
        flow.y = y + 14
    }
}
