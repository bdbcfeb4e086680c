import Foundation
@testable import SetServer
import SetTestSupport
import Testing

/// Issue 45, item 16: an old accounts log with a damaged record and a torn last line. The damaged
/// record costs itself alone, and everything left out is named in the log.
@Suite struct AccountImportDamageTests {
    static func account(_ id: Int) -> String {
        let key = String(repeating: "0", count: 62) + String(format: "%02x", id)
        return "{\"id\":\(id),\"identity\":\"key:\(key)\",\"name\":\"p\(id)\",\"type\":\"account\",\"wall\":1000000}"
    }

    @Test func oneDamagedRecordCostsItselfAndATornLastLineIsNamed() throws {
        let folder = temporaryFolder("setgame-import-damage")
        try FileManager.default.createDirectory(atPath: folder + "/accounts", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var lines = (0..<50).map(Self.account)
        lines[25] = "{\"id\":25,\"identity\":\"key:00"  // damaged in place: the lines after it are whole
        let torn = String(Self.account(50).prefix(40))
        let log = lines.joined(separator: "\n") + "\n" + torn
        try Data(log.utf8).write(to: URL(fileURLWithPath: "\(folder)/accounts/\(AccountLogFile.fileName)"))
        let said = ServerLogLines()
        let store = try SQLAccountStore.open(.memory, dataFolder: folder, policy: .standard, wallSeconds: 9, log: said.log)
        let kept = try (0..<51).filter { try store.account(id: $0) != nil }
        #expect(kept == Array(0..<25) + Array(26..<50), "\(kept)")
        #expect(said.all.contains { $0.contains("record 26") && $0.contains("left out") }, "\(said.all)")
        #expect(said.all.contains { $0.contains("last line") && $0.contains("torn") && $0.contains("left out") }, "\(said.all)")
        #expect(said.all.contains { $0.contains("imported 49 accounts") }, "\(said.all)")
    }
}
