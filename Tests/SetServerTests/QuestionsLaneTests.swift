import Foundation
import SetDatabase
import SetNet
@testable import SetServer
import SetTestSupport
import Testing

/// Issue 43 item 3: account questions have a lane and a connection of their own (read-only on
/// SQLite), so one is answered while a record holds the writer's transaction and an admission
/// waits behind it, on SQLite and on PostgreSQL.
@Suite(.serialized) struct QuestionsLaneTests {
    /// Where a test database is, as the server names its store.
    static func location(_ database: TestDatabase) -> StoreLocation {
        database.kind == .sqlite ? .sqliteFile(database.location) : .postgres(database.location)
    }

    /// Another connection to the store at `location`, as the server opens for its lanes.
    static func another(_ location: StoreLocation, readOnly: Bool) throws -> SQLAccountStore {
        guard let store = try SQLAccountStore.another(location, readOnly: readOnly) else { throw StoreError.unavailable("in memory") }
        return store
    }

    @Test(arguments: TestStoreKind.allCases)
    func aQuestionIsAnsweredWhileARecordHoldsTheWriterAndAnAdmissionWaits(kind: TestStoreKind) throws {
        guard let subject = try StoreUnderTest.make(kind) else { return }
        _ = try subject.store.create(.accountKey(digest: "a"), name: "ann", bot: false, wallSeconds: 1)
        let loop = try EventLoop()
        let location = Self.location(subject.database)
        let edge = AccountsEdge(store: try Self.another(location, readOnly: false), records: try Self.another(location, readOnly: false),
                                questions: try Self.another(location, readOnly: true), loop: loop, clock: ManualTime(1_000), log: .silent,
                                closesStore: true)
        edge.start()
        let release = DispatchSemaphore(value: 0), holding = DispatchSemaphore(value: 0)
        defer {
            release.signal()
            release.signal()
            edge.stop()
        }
        // The records lane holds a write transaction open (SQLite's write lock), as a long record would.
        edge.ask(on: .records, { store throws(StoreError) in
            try SQLAccountStore.storing { () throws(DatabaseError) in
                try (store as! SQLAccountStore).database.transaction { () throws(DatabaseError) in
                    try (store as! SQLAccountStore).database.execute("UPDATE accounts SET games = games WHERE id = 0")
                    holding.signal()
                    release.wait()
                }
            }
        }) { _ in }
        #expect(holding.wait(timeout: .now() + 10) == .success)
        // An admission waits on the player lane.
        edge.ask({ _ in holding.signal(); release.wait() }) { _ in }
        #expect(holding.wait(timeout: .now() + 10) == .success)

        var answer: Result<Bool, StoreError>?
        let asked = edge.askQuestion(from: 1, { store throws(StoreError) in (try store.profile("ann")).isSuccess }) { answer = $0 }
        #expect(asked)
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        loop.run(timeout: { 20 }, tick: { if answer != nil || ContinuousClock.now >= deadline { loop.stop() } })
        loop.clearStop()
        #expect(try answer?.get() == true, "the question waited behind the writer or the admission")
    }

    @Test func theQuestionsConnectionOnSQLiteCannotWrite() throws {
        guard let subject = try StoreUnderTest.make(.sqlite) else { return }
        let questions = try Self.another(Self.location(subject.database), readOnly: true)
        #expect(throws: StoreError.self) { try questions.create(.accountKey(digest: "b"), name: "bob", bot: false, wallSeconds: 1) }
        #expect(try subject.store.account(named: "bob") == nil)
    }
}

extension QuestionsLaneTests {
    /// The questions' read-only connection does not map the file: each commit by another
    /// connection would have it unmap everything it had read and fault it in again
    /// (`SQLiteDatabase.readerMapBytes`).
    @Test func theQuestionsConnectionOnSQLiteReadsWithoutMappingTheFile() throws {
        guard let subject = try StoreUnderTest.make(.sqlite) else { return }
        let questions = try Self.another(Self.location(subject.database), readOnly: true)
        let mapped = try questions.database.row("PRAGMA mmap_size")?.int(0) as Int?
        #expect(mapped == 0 && SQLiteDatabase.readerMapBytes == 0)
    }
}

extension Result {
    /// Whether it holds a value.
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
