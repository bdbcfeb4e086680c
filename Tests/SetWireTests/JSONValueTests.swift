import Testing
import SetWire

@Suite struct JSONValueTests {
    @Test func accessorsReadOnlyTheMatchingType() {
        let value: JSONValue = ["name": "ann", "n": 3, "ok": true, "list": [1, 2], "none": nil]
        #expect(value["name"]?.stringValue == "ann")
        #expect(value["n"]?.intValue == 3)
        #expect(value["ok"]?.boolValue == true)
        #expect(value["list"]?.arrayValue == [1, 2])
        #expect(value["none"] == .null)
        #expect(value["missing"] == nil)
        #expect(value["name"]?.intValue == nil)
        #expect(JSONValue.string("x")["name"] == nil)
    }

    @Test func integralDoublesReadAsIntegers() {
        #expect(JSONValue.double(42).intValue == 42)
        #expect(JSONValue.double(4.5).intValue == nil)
        #expect(JSONValue.double(1e300).intValue == nil)
    }

    @Test func typeNamesAreJSONs() {
        #expect(JSONValue.int(1).typeName == "number")
        #expect(JSONValue.object([:]).typeName == "object")
    }
}
