import Glibc
import SetRatings
import SetRules

/// A checkpoint of the book derived from the accounts log (`accounts/accounts.snapshot`), so a
/// start reads a million games as bytes instead of parsing a million JSON lines. The log stays
/// the truth: the snapshot names the log offset it covers and a hash of the log's bytes just
/// before it, each section carries a checksum, and anything that does not match (a damaged,
/// stale or foreign snapshot, a log that was replaced or cut) makes the start ignore it and
/// read the whole log. Written to a temporary file and renamed, so it is never half there.
enum AccountSnapshot {
    static let fileName = "accounts.snapshot"
    private static let magic: UInt64 = 0x3150_4e53_4341_4753  // "SGACSNP1"
    private static let version: UInt64 = 2
    /// How much of the log's end before the offset the snapshot checks it still follows.
    private static let tailBytes = 4096

    /// The book the snapshot at `path` holds and the log offset after which the log continues it;
    /// nil when there is none, or it is damaged or does not fit the log at `logPath`.
    static func read(_ path: String, logPath: String) -> (book: AccountBook, offset: Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let header = readSection(fd), header.count == 5 * 8 else { return nil }
        var h = ByteReader(header)
        guard let fileMagic = h.u64(), fileMagic == magic, h.u64() == version, h.u64() == UInt64(MemoryLayout<GameStore.Game>.stride),
              let offset = h.u64().map(Int.init), let tail = h.u64(), tailHash(of: logPath, before: offset) == tail else { return nil }
        // The accounts are built, and their sections' buffers let go, before the games are read:
        // the start's peak memory stays near what the book keeps.
        guard let (list, rated) = accounts(fd), let nameBytes = readSection(fd), let names = strings(nameBytes),
              let textBytes = readSection(fd), let texts = strings(textBytes), let games = readGames(fd),
              let store = GameStore(games: games, texts: texts, names: names),
              let book = AccountBook(accounts: list, games: store, ratedGames: rated) else { return nil }
        return (book, offset)
    }

    /// Writes `book`, derived from the log at `logPath` up to `offset`, as the snapshot at `path`.
    @discardableResult
    static func write(_ book: AccountBook, offset: Int, logPath: String, to path: String) -> Bool {
        guard _isPOD(GameStore.Game.self), let tail = tailHash(of: logPath, before: offset) else { return false }
        var header = ByteWriter()
        for value in [magic, version, UInt64(MemoryLayout<GameStore.Game>.stride), UInt64(offset), tail] { header.u64(value) }
        var accounts = ByteWriter(), times = ByteWriter(), names = ByteWriter(), texts = ByteWriter()
        // Room made at once: buffers doubling as they filled held half as much again at the
        // peak of a start without a snapshot (room never written takes no memory).
        accounts.bytes.reserveCapacity(book.accounts.count * 512)
        times.bytes.reserveCapacity(book.accounts.reduce(0) { $0 + $1.setTimes.tenths.count })
        accounts.u64(UInt64(book.accounts.count))
        accounts.u64(UInt64(book.ratedGames))
        for account in book.accounts {
            accounts.string(AccountRecord.text(account.identity))
            accounts.string(account.name)
            accounts.u64(account.bot ? 1 : 0)
            accounts.u64(UInt64(bitPattern: account.createdWall))
            for count in [account.wins, account.losses, account.draws, account.setTimes.bestMs, account.setTimes.tenths.count, account.setTimes.slow.count] {
                accounts.u64(UInt64(bitPattern: Int64(count)))
            }
            for slow in account.setTimes.slow { accounts.u64(UInt64(slow)) }
            let ratings = Variant.allCases.enumerated().compactMap { index, variant in account.ratings[variant].map { (index, $0) } }
            accounts.u64(UInt64(ratings.count))
            for (index, rating) in ratings {
                accounts.u64(UInt64(index))
                for value in [rating.rating, rating.deviation, rating.volatility] { accounts.u64(value.bitPattern) }
            }
            times.bytes.append(contentsOf: account.setTimes.tenths)
        }
        names.u64(UInt64(book.games.names.count))
        for name in book.games.names { names.string(name) }
        texts.u64(UInt64(book.games.texts.count))
        for text in book.games.texts { texts.string(text) }
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        var written = true
        for section in [header.bytes, accounts.bytes, times.bytes, names.bytes, texts.bytes] {
            written = written && section.withUnsafeBytes { writeSection(fd, $0) }
        }
        written = written && book.games.games.withUnsafeBytes { writeSection(fd, $0) }
        close(fd)
        // No fsync: a snapshot lost or torn by a crash is caught by its checksums and costs only
        // a slower start (the whole log is read), never data.
        guard written, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    private static func accounts(_ fd: Int32) -> (accounts: [AccountBook.Account], ratedGames: Int)? {
        guard let bytes = readSection(fd), let timeBytes = readSection(fd) else { return nil }
        var r = ByteReader(bytes)
        guard let count = r.count(), let rated = r.u64() else { return nil }
        var list: [AccountBook.Account] = []
        list.reserveCapacity(count)
        var timeOffset = 0
        for id in 0..<count {
            guard let identityText = r.string(), let identity = AccountRecord.identity(identityText), let name = r.string(),
                  let bot = r.u64(), let wall = r.u64(), let wins = r.int(), let losses = r.int(), let draws = r.int(),
                  let best = r.int(), let timeCount = r.count(), let slowCount = r.count() else { return nil }
            var slow: [Int32] = []
            for _ in 0..<slowCount {
                guard let value = r.u64(), value <= UInt64(Int32.max) else { return nil }
                slow.append(Int32(value))
            }
            guard let ratingCount = r.count() else { return nil }
            var account = AccountBook.Account(id: id, identity: identity, name: name, bot: bot != 0, createdWall: Int64(bitPattern: wall))
            (account.wins, account.losses, account.draws) = (wins, losses, draws)
            for _ in 0..<ratingCount {
                guard let index = r.count(), index < Variant.allCases.count, let rating = r.u64(), let deviation = r.u64(), let volatility = r.u64() else { return nil }
                account.ratings[Variant.allCases[index]] = Rating(rating: Double(bitPattern: rating), deviation: Double(bitPattern: deviation),
                                                                 volatility: Double(bitPattern: volatility))
            }
            let end = timeOffset + timeCount
            guard end <= timeBytes.count, best >= -1 else { return nil }
            account.setTimes = SetTimes(tenths: Array(timeBytes[timeOffset..<end]), slow: slow, bestMs: best)
            timeOffset = end
            list.append(account)
        }
        guard r.atEnd, timeOffset == timeBytes.count, rated <= UInt64(Int.max) else { return nil }
        return (list, Int(rated))
    }

    private static func strings(_ bytes: [UInt8]) -> [String]? {
        var r = ByteReader(bytes)
        guard let count = r.count() else { return nil }
        var list: [String] = []
        list.reserveCapacity(count)
        for _ in 0..<count {
            guard let text = r.string() else { return nil }
            list.append(text)
        }
        return r.atEnd ? list : nil
    }

    // MARK: sections: length, bytes, checksum

    private static func writeSection(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var frame = ByteWriter()
        frame.u64(UInt64(bytes.count))
        var sum = ByteWriter()
        sum.u64(checksum(bytes))
        return writeAll(fd, frame.bytes) && (bytes.isEmpty || writeAll(fd, bytes)) && writeAll(fd, sum.bytes)
    }

    private static func readSection(_ fd: Int32) -> [UInt8]? {
        guard let length = readLength(fd) else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        guard bytes.withUnsafeMutableBytes({ readAll(fd, $0) }), checks(fd, bytes.withUnsafeBytes { checksum($0) }) else { return nil }
        return bytes
    }

    /// The games section read straight into the array, no copy between.
    private static func readGames(_ fd: Int32) -> [GameStore.Game]? {
        let stride = MemoryLayout<GameStore.Game>.stride
        guard _isPOD(GameStore.Game.self), let length = readLength(fd), length % stride == 0 else { return nil }
        var ok = false
        let games = [GameStore.Game](unsafeUninitializedCapacity: length / stride) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            guard readAll(fd, raw) else { return }
            ok = checks(fd, checksum(UnsafeRawBufferPointer(raw)))
            initialized = length / stride
        }
        var rest: UInt8 = 0
        guard ok, Glibc.read(fd, &rest, 1) == 0 else { return nil }
        return games
    }

    private static func readWord(_ fd: Int32) -> UInt64? {
        var word: UInt64 = 0
        guard withUnsafeMutableBytes(of: &word, { readAll(fd, $0) }) else { return nil }
        return UInt64(littleEndian: word)
    }

    private static func readLength(_ fd: Int32) -> Int? {
        guard let length = readWord(fd), length < 1 << 40 else { return nil }
        return Int(length)
    }

    private static func checks(_ fd: Int32, _ sum: UInt64) -> Bool { readWord(fd) == sum }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { writeAll(fd, $0) } }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    private static func readAll(_ fd: Int32, _ bytes: UnsafeMutableRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = Glibc.read(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// The hash of the log's last `tailBytes` before `offset`; nil when the log is shorter.
    private static func tailHash(of logPath: String, before offset: Int) -> UInt64? {
        let fd = open(logPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return offset == 0 ? checksum(UnsafeRawBufferPointer(start: nil, count: 0)) : nil }
        defer { close(fd) }
        let start = max(0, offset - tailBytes)
        var bytes = [UInt8](repeating: 0, count: offset - start)
        let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(start)) }
        guard read == bytes.count else { return nil }
        return bytes.withUnsafeBytes { checksum($0) }
    }

    /// A fast 64-bit checksum, a word at a time: it catches damage, it is no defence against tampering.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 32
            index += 8
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3
            index += 1
        }
        return hash
    }
}

/// Little-endian words and length-prefixed strings, for the snapshot.
private struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }

    mutating func string(_ text: String) {
        let utf8 = Array(text.utf8)
        u64(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    mutating func u64() -> UInt64? {
        guard position + 8 <= bytes.count else { return nil }
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: position, as: UInt64.self) }
        position += 8
        return UInt64(littleEndian: value)
    }

    mutating func int() -> Int? { u64().map { Int(Int64(bitPattern: $0)) } }

    /// A count or index: small and non-negative.
    mutating func count() -> Int? {
        guard let value = u64(), value < 1 << 32 else { return nil }
        return Int(value)
    }

    mutating func string() -> String? {
        guard let length = count(), position + length <= bytes.count else { return nil }
        let text = String(decoding: bytes[position..<position + length], as: UTF8.self)
        position += length
        return text
    }
}
