import CPHRPoppler

/// The poppler-glib version phr was built against, for `phr status` and reindex decisions.
public enum PopplerInfo {
    public static var version: String { String(cString: poppler_get_version()) }
}
