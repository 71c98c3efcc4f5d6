/// The version of phr and phr-render, which are always built and installed together.
public enum PHRVersion {
    public static let string = "0.1.0"
}
