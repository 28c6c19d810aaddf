package dev.jperf.report.aggregate;

import dev.jperf.format.feature.GroupDescs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One section of perf report: an event's hists and, in group view (perf's symbol_conf.event_group)
 * when the event leads a group, its members' hists matched and linked to the leader's entries
 * (hists__match, hists__link): a row per entry of any member, a column per member.
 */
public final class GroupHists {
    private final Hists leader;
    /** The group's members after the leader, by group index - 1; empty outside group view. */
    private final List<Hists> members;
    private final String title;
    private final boolean plural;
    /** Each leader entry's pairs by group index - 1 (perf's he->pairs): null where a member has none. */
    private final Map<HistEntry, HistEntry[]> pairs = new IdentityHashMap<>();

    private GroupHists(Hists leader, List<Hists> members, String title, boolean plural) {
        this.leader = leader;
        this.members = List.copyOf(members);
        this.title = title;
        this.plural = plural;
        for (int i = 0; i < this.members.size(); i++) {
            match(i);
            link(i);
        }
    }

    /**
     * The report's sections, in the events' order, as perf's report prints them.
     *
     * @param hists every event's hists, by the event's index in the file
     * @param groups the file's HEADER_GROUP_DESC groups (empty when it has none)
     * @param eventGroup --group/--no-group, or null for perf's default: group view when the file
     *     has groups
     */
    public static List<GroupHists> sections(List<Hists> hists, List<GroupDescs.Group> groups, Boolean eventGroup) {
        int n = hists.size();
        int[] leaderOf = new int[n];
        int[] nrMembers = new int[n];
        String[] groupName = new String[n];
        for (int i = 0; i < n; i++) {
            leaderOf[i] = i;
            nrMembers[i] = 1;
        }
        for (GroupDescs.Group g : groups) {
            int lead = g.leaderIdx();
            if (lead < 0 || lead >= n || g.nrMembers() < 1) {
                continue;
            }
            nrMembers[lead] = g.nrMembers();
            groupName[lead] = GroupDescs.ANON_GROUP.equals(g.name()) ? null : g.name();
            for (int j = lead + 1; j < n && j < lead + g.nrMembers(); j++) {
                leaderOf[j] = lead;
            }
        }
        // perf's evlist__force_leader: --group or --no-group on a file without groups makes the
        // first event lead all of them ("events" in its title either way)
        boolean forced = eventGroup != null && groups.isEmpty() && n > 1;
        if (forced) {
            for (int i = 0; i < n; i++) {
                leaderOf[i] = 0;
            }
            nrMembers[0] = n;
        }
        boolean group = eventGroup != null ? eventGroup : !groups.isEmpty();
        List<GroupHists> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Hists h = hists.get(i);
            boolean leads = leaderOf[i] == i;
            if (group && !leads) {
                continue;
            }
            if (!group || !leads || nrMembers[i] < 2) {
                out.add(new GroupHists(h, List.of(), h.event().name(), leads && nrMembers[i] > 1));
                continue;
            }
            List<Hists> members = new ArrayList<>();
            StringBuilder t = new StringBuilder();
            if (!forced) {
                t.append(groupName[i] != null ? groupName[i] : "anon group").append(" { ");
            }
            t.append(h.event().name());
            for (int j = i + 1; j < n; j++) {
                if (leaderOf[j] == i) {
                    members.add(hists.get(j));
                    t.append(", ").append(hists.get(j).event().name());
                }
            }
            if (!forced) {
                t.append(" }");
            }
            out.add(new GroupHists(h, members, t.toString(), true));
        }
        return out;
    }

    /** Each event a section of its own (perf's --no-group on a file whose events stand alone). */
    public static List<GroupHists> ungrouped(List<Hists> hists) {
        return sections(hists, List.of(), null);
    }

    /** perf's hists__match: each leader entry paired with the member's equal entry. */
    private void match(int m) {
        Hists member = members.get(m);
        for (HistEntry e : leader.inputEntries()) {
            HistEntry pair = member.find(e);
            if (pair != null) {
                pairsOf(e)[m] = pair;
            }
        }
    }

    /** perf's hists__link: a dummy leader entry for each member entry nothing matched. */
    private void link(int m) {
        Hists member = members.get(m);
        Set<HistEntry> paired = Collections.newSetFromMap(new IdentityHashMap<>());
        for (HistEntry[] p : pairs.values()) {
            if (p[m] != null) {
                paired.add(p[m]);
            }
        }
        for (HistEntry e : member.inputEntries()) {
            if (!paired.contains(e)) {
                pairsOf(leader.addDummy(e))[m] = e;
            }
        }
    }

    private HistEntry[] pairsOf(HistEntry e) {
        return pairs.computeIfAbsent(e, k -> new HistEntry[members.size()]);
    }

    public Hists leader() {
        return leader;
    }

    /** The section's event name: the leader's, or perf's group description ("anon group { a, b }"). */
    public String title() {
        return title;
    }

    /** Whether perf says "events" (the leader leads more than itself, group view or not). */
    public boolean plural() {
        return plural;
    }

    /** Columns per percentage: the leader and each member. */
    public int columns() {
        return members.size() + 1;
    }

    /** The group's column {@code i} (0: the leader). */
    public Hists hists(int i) {
        return i == 0 ? leader : members.get(i - 1);
    }

    /** The entry of column {@code i} paired with the leader's entry {@code e}, or null. */
    public HistEntry pair(HistEntry e, int i) {
        if (i == 0) {
            return e;
        }
        HistEntry[] p = pairs.get(e);
        return p == null ? null : p[i - 1];
    }

    /** perf's header counts of a group: the leader's and each member's summed. */
    public long samples(boolean relative) {
        long n = 0;
        for (int i = 0; i < columns(); i++) {
            n += relative ? hists(i).nonFilteredSamples() : hists(i).samples();
        }
        return n;
    }

    public long totalPeriod(boolean relative) {
        long n = 0;
        for (int i = 0; i < columns(); i++) {
            n += relative ? hists(i).nonFilteredPeriod() : hists(i).totalPeriod();
        }
        return n;
    }

    /**
     * The leader's entries in perf's output order: in group view the self period's ties are broken
     * by each member's self period in turn (__hpp__sort), before the keys.
     */
    public List<HistEntry> sorted(Set<SortKey> elided) {
        if (members.isEmpty()) {
            return leader.sorted(elided);
        }
        Comparator<HistEntry> byMembers = (a, b) -> {
            for (int i = 1; i < columns(); i++) {
                int c = Long.compare(period(b, i), period(a, i));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
        return leader.sorted(elided, byMembers);
    }

    private long period(HistEntry e, int i) {
        HistEntry p = pair(e, i);
        return p == null ? 0 : p.period();
    }
}
