/// A seat token names its match: `MATCH~SECRET` (Protocol.md, "Several servers (nodes)"). Any
/// node, and the client that kept the token, finds the token's match from the token alone, so a
/// resume sent to a node that does not hold the match is redirected rather than refused, with no
/// table of tokens in the store. The secret part alone takes the seat; the name is no secret.
package enum TokenMatch {
    /// Between the match's name and the secret: a character no match name has.
    package static let separator: Character = "~"

    /// The token for a seat in `match` with the secret `secret`.
    package static func token(match: String, secret: String) -> String {
        "\(match)\(separator)\(secret)"
    }

    /// The match a token names; nil for a token that names none (older servers', `setgame play`'s)
    /// or a name no match could have.
    package static func match(of token: String) -> String? {
        guard let end = token.firstIndex(of: separator) else { return nil }
        let name = String(token[..<end])
        return ClientMessageDecoder.isAcceptable(matchName: name) ? name : nil
    }
}
