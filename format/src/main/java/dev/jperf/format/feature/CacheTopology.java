package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * CACHE: u32 version (1), u32 count; per level {u32 level, u32 line_size, u32 sets, u32 ways,
 * string type, string size ("32K"), string shared_cpu_list}.
 */
public record CacheTopology(int version, List<Level> levels) implements FeatureSection {
    /** One cache: its level, geometry, type ("Data", "Instruction", "Unified"), size and the CPUs sharing it. */
    public record Level(int level, int lineSize, int sets, int ways, String type, String size, String map) {
    }

    public CacheTopology {
        levels = List.copyOf(levels);
    }

    public static CacheTopology decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "CACHE");
        int version = r.u32("version");
        if (version != 1) {
            throw r.error("unsupported version " + version);
        }
        int n = r.count("count", 28);
        List<Level> levels = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            levels.add(new Level(r.u32("level"), r.u32("line_size"), r.u32("sets"), r.u32("ways"),
                    r.string("type"), r.string("size"), r.string("map")));
        }
        return new CacheTopology(version, levels);
    }

    @Override
    public int bit() {
        return Feature.CACHE.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u32(version).u32(levels.size());
        for (Level l : levels) {
            w.u32(l.level).u32(l.lineSize).u32(l.sets).u32(l.ways).string(l.type).string(l.size).string(l.map);
        }
        return w.toByteArray();
    }
}
