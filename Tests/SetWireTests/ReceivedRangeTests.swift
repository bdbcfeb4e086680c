import SetRules
import SetWire
import Testing

/// What a client receives is checked as it is decoded: times, counts and tables outside what an
/// honest server sends are refused with `bad_field`, so no client arithmetic meets them.
@Suite struct ReceivedRangeTests {
    let rules = #"{"claimTimeoutPenalty":10,"claimWindowMs":5000,"dealGraceMs":8000,"dealPenalty":15,"hintCost":15,"hintsInDuel":false,"secondChanceMs":10000,"setPointsLostPerSecond":1,"setPointsMax":30,"setPointsMin":10,"wrongSetPenalty":10}"#

    func snapshot(table: String = "[9,40,16]", deck: Int = 69, window: String = "null", forfeitAt: String? = nil,
                  time: String = "1000", rules: String? = nil) -> String {
        #"{"commitment":null,"deck":\#(deck),"game":1,"match":"demo","mode":"duel","players":[],"rematch":[],"result":null,"rules":\#(rules ?? self.rules),"seed":null,"selection":null,"seq":3,"shown":null,"spectators":0,"state":"playing","table":\#(table),"tableChangedAt":1000,"time":\#(time),"type":"snapshot","window":\#(window)"# + (forfeitAt.map { #","forfeitAt":\#($0)"# } ?? "") + "}"
    }

    func window(opened: String, deadline: String) -> String {
        #"{"deadline":\#(deadline),"durationMs":0,"holder":0,"kind":"second_chance","opened":\#(opened)}"#
    }

    func refusal(_ line: String) -> WireError? {
        if case .failure(let error) = ServerMessageCoding.decode(Array(line.utf8)) { return error }
        return nil
    }

    @Test func anHonestSnapshotStillDecodes() {
        #expect(refusal(snapshot(window: window(opened: "1000", deadline: "6000"), forfeitAt: "121000")) == nil)
        #expect(refusal(snapshot(table: "[" + (0..<81).map(String.init).joined(separator: ",") + "]", deck: 0)) == nil)
    }

    @Test(arguments: [
        #"{"limits":{},"protocol":1,"server":"x","time":-9223372036854775808,"type":"welcome","versions":[1]}"#,
        #"{"limits":{},"protocol":1,"server":"x","time":9223372036854775807,"type":"welcome","versions":[1]}"#,
        #"{"clientTime":1,"time":-1,"type":"pong"}"#,
        #"{"time":9007199254740993,"type":"ping"}"#,
        #"{"kind":"presence","match":"m","present":false,"seat":0,"seq":2,"time":1,"type":"event","forfeitAt":9223372036854775807}"#,
        #"{"kind":"presence","match":"m","present":false,"seat":0,"seq":2,"time":1,"type":"event","forfeitAt":-9223372036854775808}"#,
        #"{"kind":"spectators","match":"m","count":1,"seq":-1,"time":1,"type":"event"}"#,
        #"{"kind":"spectators","match":"m","count":-5,"seq":2,"time":1,"type":"event"}"#,
        #"{"kind":"resumed","match":"m","seq":2,"tableChangedAt":-1,"time":1,"type":"event","window":null}"#,
        #"{"ack":1,"id":1,"seq":9223372036854775807,"type":"ack"}"#,
        #"{"match":"m","seq":1,"setsOnTable":63181,"type":"insight"}"#,
    ])
    func timesAndCountsOutOfRangeAreRefused(_ line: String) {
        #expect(refusal(line)?.code == .badField, "\(line)")
    }

    @Test func windowsMustOpenBeforeTheirDeadlineAndLastNoLongerThanTheRulesAllow() {
        for (opened, deadline, field) in [("-9223372036854775808", "9223372036854775807", "opened"),
                                          ("4000000000000000000", "4000000000000000000", "opened"),
                                          ("0", "9223372036854775807", "deadline"),
                                          ("6000", "1000", "window"), ("1000", "700000", "window")] {
            let error = refusal(snapshot(window: window(opened: opened, deadline: deadline)))
            #expect(error?.code == .badField && error?.details["field"] == .string(field), "\(opened)...\(deadline)")
        }
        let event = #"{"kind":"window_opened","match":"m","seq":2,"time":1,"type":"event","window":\#(window(opened: "0", deadline: "-9223372036854775808"))}"#
        #expect(refusal(event)?.code == .badField)
    }

    @Test func tablesTheRulesCannotProduceAreRefused() {
        let huge = "[" + (0..<3_000).map { String($0 % 81) }.joined(separator: ",") + "]"
        for (table, deck) in [(huge, 0), ("[1,2,3,1]", 0), ("[81]", 0), ("[1,2,3]", 79), ("[1,2,3]", -1)] {
            #expect(refusal(snapshot(table: table, deck: deck))?.code == .badField, "\(table.prefix(20)) deck \(deck)")
        }
        let started = #"{"commitment":"ab","deck":69,"game":1,"kind":"game_started","match":"m","scores":[0,0],"seq":3,"table":\#(huge),"time":1,"type":"event"}"#
        #expect(refusal(started)?.code == .badField)
        let changed = #"{"added":[1,1,1],"deck":0,"kind":"table","match":"m","removed":[],"seq":3,"table":[1,2,3],"time":1,"type":"event"}"#
        #expect(refusal(changed)?.code == .badField)
        // Four cards are an UltraSet pick; five are no pick of any variant.
        let selection = #"{"cards":[1,2,3,4,5],"kind":"selection","match":"m","seat":0,"seq":3,"time":1,"type":"event"}"#
        #expect(refusal(selection)?.code == .badField)
        let ultra = #"{"cards":[1,2,3,4],"kind":"selection","match":"m","seat":0,"seq":3,"time":1,"type":"event"}"#
        #expect(refusal(ultra) == nil)
    }

    @Test func rulesOutOfTheirRangesAreRefused() {
        for (key, value) in [("claimWindowMs", "9223372036854775807"), ("setPointsLostPerSecond", "4611686018427387904"),
                             ("secondChanceMs", "-9223372036854775808"), ("hintCost", "-1")] {
            let bent = rules.replacingOccurrences(of: #""\#(key)":"#, with: #""\#(key)":\#(value),"x\#(key)":"#)
            let error = refusal(snapshot(rules: bent))
            #expect(error?.code == .badField && error?.details["field"] == "rules", "\(key)")
        }
    }

    @Test func aPongMayEchoAnyClientTime() {
        #expect(refusal(#"{"clientTime":-9223372036854775808,"time":5,"type":"pong"}"#) == nil)
    }

    @Test func serverTextIsMadePrintable() {
        #expect(ServerText.printable("full\u{1B}[2J\u{7}\r\nmatch\u{202E}") == "full[2J  match")
        #expect(ServerText.printable("bøb ☺ ok") == "bøb ☺ ok")
        #expect(ServerText.printable(String(repeating: "a", count: 500), limit: 10) == String(repeating: "a", count: 10) + "…")
    }
}
