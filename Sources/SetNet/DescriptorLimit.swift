import CLinux
import Glibc

/// The process's file descriptor limit (`RLIMIT_NOFILE`), which caps how many sockets it can hold.
package enum DescriptorLimit {
    /// Raises the soft limit toward the hard one (at most `ceiling`) and returns the soft limit
    /// in force afterwards, with the hard one (nil: unlimited); nil when it cannot be read.
    package static func raise(ceiling: Int = 1 << 20) -> (soft: Int, hard: Int?)? {
        var hard: Int64 = 0
        let soft = setgame_raise_descriptor_limit(Int64(ceiling), &hard)
        guard soft >= 0 else { return nil }
        return (Int(soft), hard < 0 ? nil : Int(hard))
    }

    /// The IPv4 address of a connected socket's peer, as dotted text ("?" if it has none).
    package static func peerAddress(_ fd: Int32) -> String {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard status == 0, address.sin_family == sa_family_t(AF_INET) else { return "?" }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(INET_ADDRSTRLEN)) != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
