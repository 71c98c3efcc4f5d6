import PHRService

/// A form the service layer refused: the values as typed (shown again, so nothing typed is
/// lost) and the field the error is about, with the error in words beside that field.
struct FormState: Sendable {
    /// Which form ("lab-add", "log-add").
    var name: String
    var values: [String: String]
    /// The form's input the error names (its `name`), nil when the error names none.
    var field: String?
    var message: String

    /// The state after `error` refused `values`: the field is the first the error's message
    /// names that the form has (`labels` maps a field's name to its input's label, and that
    /// label is how the message writes the field).
    init(name: String, values: [String: String], error: Error, labels: [String: String]) {
        self.name = name
        self.values = values
        var field: String?
        if let error = error as? PHRError {
            for part in error.message.parts + (error.hint?.parts ?? []) {
                if case .field(let named) = part, labels[named.name] != nil {
                    field = named.name
                    break
                }
            }
            let spelling = FormSpelling(labels: labels)
            let message = error.message.rendered(spelling), hint = error.hint?.rendered(spelling)
            self.message = message.prefix(1).uppercased() + message.dropFirst() + "."
                + (hint.map { " " + $0.prefix(1).uppercased() + $0.dropFirst() + "." } ?? "")
        } else {
            message = WebApp.words(error)
        }
        self.field = field
    }
}

extension FormState {
    /// A refusal the screen words itself (a review's row), about `field`.
    init(name: String, values: [String: String], field: String?, message: String) {
        self.name = name
        self.values = values
        self.field = field
        self.message = message
    }
}

/// Fields as the form labels them ("Value"), in quotes; actions by their summary.
struct FormSpelling: MessageSpelling {
    let labels: [String: String]
    func spell(_ field: Field) -> String { "“" + (labels[field.name] ?? field.name) + "”" }
    func spell(_ action: Action) -> String { action.summary }
}

/// Labelled inputs that show a refused form's value and error.
struct FormFields {
    let form: String
    let state: FormState?

    /// The value to show: what was typed when the form was refused, else `value`.
    func value(_ name: String, _ value: String = "") -> String { state?.values[name] ?? value }

    /// The error beside `name`'s input, and the attributes that tie it (and the input's hint,
    /// when it has one) to the input.
    func error(_ name: String, hint: Bool = false) -> (html: HTML, attributes: HTML) {
        let hintID = "\(form)-\(name)-hint"
        guard let state, state.field == name else {
            return (.empty, hint ? " aria-describedby=\"\(hintID)\"" : .empty)
        }
        let id = "\(form)-\(name)-error"
        return ("<p class=\"field-error\" id=\"\(id)\"><span aria-hidden=\"true\">! </span>\(state.message)</p>",
                " aria-invalid=\"true\" aria-describedby=\"\(id)\(hint ? " " + hintID : "")\"")
    }

    /// An error the form refused with that names none of its fields, at the top of the form.
    var formError: HTML {
        guard let state, state.field == nil else { return .empty }
        return "<p class=\"field-error\" role=\"alert\"><span aria-hidden=\"true\">! </span>\(state.message)</p>"
    }

    /// `<label>` and `<input>` with the value kept and the error said.
    func input(_ name: String, label: String, type: String = "text", value initial: String = "", extra: HTML = .empty, hint: String? = nil) -> HTML {
        let (error, attributes) = error(name, hint: hint != nil)
        let hintHTML: HTML = hint.map { "<span class=\"muted field-hint\" id=\"\(form)-\(name)-hint\">\($0)</span>" } ?? .empty
        return """
        <div class="field"><label for="\(form)-\(name)">\(label)</label>\(hintHTML)
        <input id="\(form)-\(name)" name="\(name)" type="\(type)" value="\(value(name, initial))"\(attributes)\(extra)>\(error)</div>
        """
    }

    /// `<label>` and `<select>` of `options` (value, words), the value kept and the error said.
    func select(_ name: String, label: String, options: [(String, String)], value initial: String = "") -> HTML {
        let (error, attributes) = error(name)
        let chosen = value(name, initial)
        let items: [HTML] = options.map { option in
            "<option value=\"\(option.0)\"\(option.0 == chosen ? " selected" as HTML : .empty)>\(option.1)</option>"
        }
        return """
        <div class="field"><label for="\(form)-\(name)">\(label)</label>
        <select id="\(form)-\(name)" name="\(name)"\(attributes)>\(items)</select>\(error)</div>
        """
    }

    /// `<label>` and `<textarea>`, the value kept and the error said.
    func textarea(_ name: String, label: String, value initial: String = "", rows: Int = 3) -> HTML {
        let (error, attributes) = error(name)
        return """
        <div class="field"><label for="\(form)-\(name)">\(label)</label>
        <textarea id="\(form)-\(name)" name="\(name)" rows="\(String(rows))"\(attributes)>\(value(name, initial))</textarea>\(error)</div>
        """
    }
}
