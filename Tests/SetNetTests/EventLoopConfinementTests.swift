import Foundation
import Glibc
import SetNet
import Synchronization
import Testing

/// The loop's confinement is checked, not only promised: in a debug build, loop-only calls from a
/// thread other than the one running the loop stop the process.
@Suite struct EventLoopConfinementTests {
    @Test func theThreadRunningTheLoopAndTheThreadSettingItUpMayUseIt() throws {
        let loop = try EventLoop()
        #expect(loop.isConfinedHere)
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        try loop.register(pipeEnds[0]) { _ in }
        let insideRun = Flag()
        loop.execute { insideRun.value.store(loop.isConfinedHere, ordering: .releasing); loop.stop() }
        loop.run(timeout: { -1 }, tick: {})
        let wasConfined = insideRun.value.load(ordering: .acquiring)
        #expect(wasConfined)
        loop.unregister(pipeEnds[0])
    }

    @Test func anotherThreadIsNotConfinedWhileTheLoopRuns() throws {
        let loop = try EventLoop()
        let started = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        loop.execute { started.signal() }
        Thread.detachNewThread { loop.run(timeout: { -1 }, tick: {}); done.signal() }
        started.wait()
        #expect(!loop.isConfinedHere)
        loop.stop()
        done.wait()
        #expect(loop.isConfinedHere)
    }

    #if DEBUG
    @Test func registeringFromAnotherThreadWhileTheLoopRunsStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let loop = try EventLoop()
            let started = DispatchSemaphore(value: 0)
            loop.execute { started.signal() }
            Thread.detachNewThread { loop.run(timeout: { -1 }, tick: {}) }
            started.wait()
            var pipeEnds: [Int32] = [0, 0]
            _ = pipe(&pipeEnds)
            try loop.register(pipeEnds[0]) { _ in }
        }
    }
    #endif
}

private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}

/// One rule for where setgame keeps what it remembers, for the client, `play` and `serve`.
@Suite struct StateFolderTests {
    @Test func theXDGStateFolderComesFirstThenTheHomeFolderThenTmp() {
        #expect(ProcessEnvironment.stateFolder(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/setgame")
        #expect(ProcessEnvironment.stateFolder(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/setgame")
        #expect(ProcessEnvironment.stateFolder(environment: ["HOME": "/h"]) == "/h/.local/state/setgame")
        #expect(ProcessEnvironment.stateFolder(environment: ["HOME": "h"]) == "/tmp/setgame-\(getuid())")
        #expect(ProcessEnvironment.stateFolder(environment: [:]) == "/tmp/setgame-\(getuid())")
    }
}
