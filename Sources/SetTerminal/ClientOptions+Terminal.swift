import Glibc
import SetClient
import SetNet
import SetWire

/// What the terminal reads of `ClientOptions` from the machine: the login and the state folder.
extension ClientOptions {
    /// The user's login name ($USER, then getlogin), trimmed to what the server accepts, or "player".
    package static func loginName(environment: [String: String] = ProcessEnvironment.variables) -> String {
        var candidates = [environment["USER"], environment["LOGNAME"]]
        if let login = getlogin() { candidates.append(String(cString: login)) }
        for case let name? in candidates {
            let cleaned = String(name.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
                .prefix(ClientMessageDecoder.maxNameLength))
            if !cleaned.isEmpty { return cleaned }
        }
        return "player"
    }

    /// The state directory actually used.
    var resolvedStateDirectory: String { stateDirectory ?? ProcessEnvironment.stateFolder() }
}
