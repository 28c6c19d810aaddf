package dev.jperf.bpf;

import dev.jperf.format.json.JsonWriter;

/**
 * print_dev_plain / print_dev_json: where an offloaded program or map lives. jperf does not look
 * the interface name up in the device's namespace, so the plain form is the numeric one bpftool
 * falls back to, and the JSON has no "ifname".
 */
final class Device {
    private Device() {}

    static void plain(StringBuilder out, int ifindex, long nsDev, long nsIno) {
        if (ifindex == 0) {
            return;
        }
        out.append("  offloaded_to ifindex ").append(Integer.toUnsignedString(ifindex)).append(" ns_dev ")
                .append(Long.toUnsignedString(nsDev)).append(" ns_ino ").append(Long.toUnsignedString(nsIno));
    }

    static void json(JsonWriter jw, int ifindex, long nsDev, long nsIno) {
        if (ifindex == 0) {
            return;
        }
        jw.name("dev");
        jw.startObject();
        jw.uintField("ifindex", Integer.toUnsignedLong(ifindex));
        jw.uintField("ns_dev", nsDev);
        jw.uintField("ns_inode", nsIno);
        jw.endObject();
    }
}
