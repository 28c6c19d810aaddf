package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.LogManager;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class NoConfigLogManagerTest {
    /** The launcher names the class by string: a rename must not leave JUL printing its failure at every start. */
    @Test
    void theLauncherNamesThisLogManager() throws Exception {
        String launcher = Files.readString(Path.of("..", "jperf"));
        Matcher m = Pattern.compile("-Djava\\.util\\.logging\\.manager=(\\S+?)[\"\\s]").matcher(launcher);
        assertTrue(m.find(), "the launcher sets no java.util.logging.manager");
        Class<?> c = Class.forName(m.group(1));
        assertEquals(NoConfigLogManager.class, c);
        assertTrue(LogManager.class.isAssignableFrom(c));
    }

    /** The JDK's conf/logging.properties names a console handler; this manager reads no file at all. */
    @Test
    void readsNoConfiguration() throws Exception {
        NoConfigLogManager m = new NoConfigLogManager();
        m.readConfiguration();
        assertEquals(null, m.getProperty("handlers"));
        assertEquals(null, m.getProperty(".level"));
    }
}
