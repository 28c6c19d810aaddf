package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** GROUP_DESC: u32 nr, then nr x {string name ("{anon_group}" if unnamed), u32 leader_idx, u32 nr_members}. */
public record GroupDescs(List<Group> groups) implements FeatureSection {
    /** perf's placeholder for a group without a name. */
    public static final String ANON_GROUP = "{anon_group}";

    /** An event group: its name, the index of its leader among the events, and how many events it has. */
    public record Group(String name, int leaderIdx, int nrMembers) {
    }

    public GroupDescs {
        groups = List.copyOf(groups);
    }

    public static GroupDescs decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "GROUP_DESC");
        int n = r.count("nr_groups", 12);
        List<Group> groups = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            groups.add(new Group(r.string("name"), r.u32("leader_idx"), r.u32("nr_members")));
        }
        return new GroupDescs(groups);
    }

    @Override
    public int bit() {
        return Feature.GROUP_DESC.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u32(groups.size());
        groups.forEach(g -> w.string(g.name).u32(g.leaderIdx).u32(g.nrMembers));
        return w.toByteArray();
    }
}
