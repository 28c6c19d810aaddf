package dev.jperf.bpf;

import java.util.List;

/**
 * A program or map as bpftool's command line names it: {@code id ID}, {@code name NAME},
 * {@code tag TAG} (programs) or {@code pinned PATH}. A name or tag may match several objects.
 */
public record BpfHandle(Kind kind, int id, String text, byte[] tag) {
    public enum Kind { ID, NAME, TAG, PINNED }

    public static BpfHandle id(int id) {
        return new BpfHandle(Kind.ID, id, null, null);
    }

    public static BpfHandle name(String name) {
        return new BpfHandle(Kind.NAME, 0, name, null);
    }

    public static BpfHandle pinned(String path) {
        return new BpfHandle(Kind.PINNED, 0, path, null);
    }

    /** {@code tag TAG}: 16 hex digits (bpftool's sscanf of 8 {@code %02hhx}); "can't parse tag" otherwise. */
    public static BpfHandle tag(String hex) {
        if (hex.length() < 16) {
            throw new BpftoolException("can't parse tag");
        }
        byte[] t = new byte[8];
        for (int i = 0; i < 8; i++) {
            int hi = Character.digit(hex.charAt(2 * i), 16);
            int lo = Character.digit(hex.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new BpftoolException("can't parse tag");
            }
            t[i] = (byte) (hi << 4 | lo);
        }
        return new BpfHandle(Kind.TAG, 0, hex.substring(0, 16), t);
    }

    /**
     * map_parse_fds, prog_parse_fds, link_parse_fd: the two words at {@code at} naming an object
     * of {@code object} ("map", "prog" or "link"), each keyword accepted by any prefix as bpftool
     * accepts it; bpftool's messages otherwise. The caller checked that two words are there.
     */
    public static BpfHandle parse(List<String> words, int at, String object) {
        String kw = words.get(at);
        String arg = words.get(at + 1);
        if ("id".startsWith(kw)) {
            Long v = MapElemCommands.strtoul(arg, 0);
            if (v == null) {
                throw new BpftoolException("can't parse " + arg + " as ID");
            }
            return id((int) (long) v);
        }
        if (object.equals("prog") && "tag".startsWith(kw)) {
            return tag(arg);
        }
        if (!object.equals("link") && "name".startsWith(kw)) {
            return name(arg);
        }
        if ("pinned".startsWith(kw)) {
            return pinned(arg);
        }
        throw new BpftoolException(switch (object) {
            case "prog" -> "expected 'id', 'tag', 'name' or 'pinned', got: '" + kw + "'?";
            case "map" -> "expected 'id', 'name' or 'pinned', got: '" + kw + "'?";
            default -> "expected 'id' or 'pinned', got: '" + kw + "'?";
        });
    }

    /** As the command line said it, for messages. */
    @Override
    public String toString() {
        return switch (kind) {
            case ID -> "id " + Integer.toUnsignedString(id);
            case NAME -> "name " + text;
            case TAG -> "tag " + text;
            case PINNED -> "pinned " + text;
        };
    }
}
