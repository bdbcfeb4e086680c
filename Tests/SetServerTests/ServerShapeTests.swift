import Foundation
import Testing

/// Issue 33: hubs regrow unless something says when one has. The server's parts stay small:
/// no file in `Server/` over 250 lines, and no type in SetServer with more than 20 stored
/// properties (a type that needs more has a part without a name). Read from the sources
/// themselves, as a reviewer would count them.
@Suite struct ServerShapeTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SetServer")

    static func swiftFiles(under folder: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    @Test func noFileOfTheServersCoreIsOver250Lines() throws {
        let files = Self.swiftFiles(under: Self.sources.appendingPathComponent("Server"))
        #expect(files.count > 5, "the Server folder was not found at \(Self.sources.path)")
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines <= 250, "\(file.lastPathComponent) has \(lines) lines")
        }
    }

    @Test func noTypeHasMoreThan20StoredProperties() throws {
        var counted = 0
        for file in Self.swiftFiles(under: Self.sources) {
            for (type, count) in StoredPropertyCounter.count(try String(contentsOf: file, encoding: .utf8)) {
                counted += 1
                #expect(count <= 20, "\(type) in \(file.lastPathComponent) has \(count) stored properties")
            }
        }
        #expect(counted > 100, "too few types found: the counter no longer reads the sources")
    }

    /// The counter itself, on a shape it must get right.
    @Test func theCounterCountsStoredPropertiesOnly() {
        let source = """
        final class Hub {
            static let limit = 3
            let a: Int, b: Int
            var c = 0 { didSet { print("c") } }
            var observed: Int {
                didSet { print("observed") }
            }
            private(set) var d: [String: Int] = [:]  // a comment { with a brace
            var computed: Int { a + b }
            var text = "a { brace in a string"
            struct Inner {
                var e = 1
            }
            func f() { var local = 1; local += 1 }
        }
        extension Hub { var g: Int { 1 } }
        """
        let counts = StoredPropertyCounter.count(source)
        #expect(counts.first { $0.type == "Hub" }?.count == 6)
        #expect(counts.first { $0.type == "Inner" }?.count == 1)
        #expect(!counts.contains { $0.type == "extension" })
    }
}

/// Counts the stored properties each type declares in its own body (extensions cannot add any):
/// `let` and `var` at the body's own depth that are not `static` and not computed. A reading of
/// the text good enough for this codebase's style (a type's body opens its own lines), not a
/// Swift parser.
enum StoredPropertyCounter {
    static func count(_ source: String) -> [(type: String, count: Int)] {
        var results: [(type: String, count: Int)] = []
        var open: [(type: String?, depth: Int, count: Int)] = []
        var depth = 0
        var pending: String??
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map { code(of: String($0)) }
        for (number, line) in lines.enumerated() {
            // An observer's block may open on the next line: `var x: T {` then `didSet {`.
            let next = number + 1 < lines.count ? lines[number + 1] : ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ":" || $0 == "<" || $0 == "{" }).map(String.init)
            if let index = words.firstIndex(where: { ["class", "struct", "enum", "actor", "extension"].contains($0) }),
               index + 1 < words.count, words[..<index].allSatisfy(isModifier) {
                pending = words[index] == "extension" ? .some(nil) : .some(words[index + 1])
            }
            if let innermost = open.last, innermost.type != nil, depth == innermost.depth, isStoredProperty(words, line: line, next: next) {
                open[open.count - 1].count += storedNames(in: line)
            }
            for character in line {
                if character == "{" {
                    depth += 1
                    if let declared = pending {
                        open.append((declared, depth, 0))
                        pending = nil
                    }
                } else if character == "}" {
                    if let innermost = open.last, innermost.depth == depth {
                        open.removeLast()
                        if let type = innermost.type { results.append((type, innermost.count)) }
                    }
                    depth -= 1
                }
            }
        }
        return results
    }

    static let modifiers: Set<String> = ["public", "package", "private", "fileprivate", "internal", "final", "indirect", "nonisolated",
                                         "weak", "unowned", "lazy", "set)", "open"]

    static func isModifier(_ word: String) -> Bool { modifiers.contains(word) || word.hasPrefix("@") }

    /// A line without its comment, its string literals emptied (a brace in either counts for nothing).
    static func code(of line: String) -> String {
        var result = "", inString = false, escaped = false, previous: Character = " "
        for character in line {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false; result.append("\"") }
                continue
            }
            if character == "/" && previous == "/" {
                result.removeLast()
                break
            }
            if character == "\"" { inString = true }
            result.append(character)
            previous = character
        }
        return result
    }

    static func isStoredProperty(_ words: [String], line: String, next: String) -> Bool {
        guard let index = words.firstIndex(where: { $0 == "var" || $0 == "let" }), words[..<index].allSatisfy(isModifier),
              !words[..<index].contains("static") else { return false }
        guard let brace = line.firstIndex(of: "{") else { return true }
        let beforeBrace = line[..<brace]
        let observed = { (text: String) in text.contains("didSet") || text.contains("willSet") }
        return beforeBrace.contains("=") || observed(line) || (line.trimmingCharacters(in: .whitespaces).hasSuffix("{") && observed(next))
    }

    /// `let a: Int, b: Int` declares two.
    static func storedNames(in line: String) -> Int {
        let declaration = line.split(separator: "=", maxSplits: 1).first.map(String.init) ?? line
        var depth = 0, names = 1
        for character in declaration {
            switch character {
            case "(", "[", "<": depth += 1
            case ")", "]", ">": depth -= 1
            case "," where depth == 0: names += 1
            default: break
            }
        }
        return names
    }
}
