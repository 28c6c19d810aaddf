/**
 * What the bundled libraries' {@code java.util.logging} calls become inside jperf's jar: the
 * shade step (cli/pom.xml) relocates {@code java.util.logging.Logger} and {@code Level} to the two
 * classes here, in JNA's and protobuf's classes alike. JNA's {@code Native} takes a Logger in its
 * static initialiser, and starting the JDK's logging for it cost a measurable share of the CPU of every
 * {@code record}, {@code stat} and {@code bpf} start ({@code Level} links the process's first
 * lambdas; {@code LogManager} looks for logger services in every module and in the jar) for
 * messages at FINE that nothing shows. Warnings and errors still reach stderr, a line each.
 * Unshaded (the modules' own tests), the libraries log through the JDK as usual.
 */
package dev.jperf.cli.logging;
