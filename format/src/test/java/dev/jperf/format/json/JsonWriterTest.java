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
}
