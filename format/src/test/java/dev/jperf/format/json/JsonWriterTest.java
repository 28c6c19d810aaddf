package dev.jperf.format.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * JsonWriter lays out and escapes as bpftool 7.1's json_writer (the layouts below are what
 * Debian's bpftool printed for the same calls; BpftoolAgreementTest compares whole outputs live).
 */
class JsonWriterTest {
    private static void sample(JsonWriter jw) {
        jw.startArray();
        jw.startObject();
        jw.name("key");
        jw.startArray();
        jw.raw("\"0x01\"");
        jw.raw("\"0x02\"");
        jw.endArray();
        jw.stringField("s", "a\\b'c\"d\te");
        jw.name("empty");
        jw.startObject();
        jw.endObject();
        jw.uintField("u", -1L);
        jw.intField("i", -1L);
        jw.endObject();
        jw.endArray();
        jw.finish();
    }

    @Test
    void compactIsOneLine() {
        StringBuilder out = new StringBuilder();
        sample(new JsonWriter(out));
        assertEquals("[{\"key\":[\"0x01\",\"0x02\"],\"s\":\"a\\nb'c\\\"d\\te\",\"empty\":{},"
                + "\"u\":18446744073709551615,\"i\":-1}]\n", out.toString());
    }

    @Test
    void prettyBreaksBeforeNamesAndClosingBracketsOnly() {
        StringBuilder out = new StringBuilder();
        sample(new JsonWriter(out).pretty(true));
        assertEquals("[{\n"
                + "        \"key\": [\"0x01\",\"0x02\"\n"
                + "        ],\n"
                + "        \"s\": \"a\\nb'c\\\"d\\te\",\n"
                + "        \"empty\": {},\n"
                + "        \"u\": 18446744073709551615,\n"
                + "        \"i\": -1\n"
                + "    }\n"
                + "]\n", out.toString());
    }

    @Test
    void spacedStandardIsOneLineWithPlainJsonEscapes() {
        StringBuilder out = new StringBuilder();
        sample(new JsonWriter(out).spaced(true).standard(true));
        assertEquals("[{\"key\": [\"0x01\", \"0x02\"], \"s\": \"a\\\\b'c\\\"d\\u0009e\", \"empty\": {}, "
                + "\"u\": 18446744073709551615, \"i\": -1}]\n", out.toString());
        out.setLength(0);
        new JsonWriter(out).standard(true).string("\u0001\u001f\n\\");
        assertEquals("\"\\u0001\\u001f\\u000a\\\\\"", out.toString());
    }

    /** perf stat -j's layout: {@code "name" : value} and {@code ", "} between them. */
    @Test
    void colonSpacedIsPerfStatsLayout() {
        StringBuilder out = new StringBuilder();
        JsonWriter jw = new JsonWriter(out).spaced(true).colonSpaced(true).standard(true);
        jw.startObject();
        jw.name("interval");
        jw.raw("1.000000000");
        jw.stringField("event", "cpu-clock");
        jw.endObject();
        assertEquals("{\"interval\" : 1.000000000, \"event\" : \"cpu-clock\"}", out.toString());
    }

    /** Hostile names: read back as written, and nothing in them ends a script element. */
    @Test
    void hostileNamesRoundTripAndStayInsideAScript() throws Exception {
        String name = "a\"b\\c</script><b>\u2028\u2029\u0000\u001f\u007f\u00e9";
        StringBuilder out = new StringBuilder();
        JsonWriter jw = new JsonWriter(out).standard(true).scriptSafe(true);
        jw.startObject();
        jw.stringField(name, name);
        jw.endObject();
        String json = out.toString();
        assertEquals("{\"a\\\"b\\\\c\\u003c/script>\\u003cb>\\u2028\\u2029\\u0000\\u001f\u007f\u00e9\":"
                + "\"a\\\"b\\\\c\\u003c/script>\\u003cb>\\u2028\\u2029\\u0000\\u001f\u007f\u00e9\"}", json);
        com.fasterxml.jackson.databind.JsonNode back = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        assertEquals(name, back.get(name).asText());
    }
}
