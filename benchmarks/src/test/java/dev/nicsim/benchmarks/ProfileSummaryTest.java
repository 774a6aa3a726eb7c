package dev.nicsim.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The split of a hand-written collapsed profile whose rows are counted by hand. Its sequential part
 * has 200 samples: event loop 40 + 30 + 20 + 10 + 5 + 15 = 120 (60 %), JIT 50 (25 %), GC 20 (10 %),
 * other 10 (5 %). A partition worker adds 10: its 6 in the loop count as event loop (a delivery into
 * a NIC), its 4 waiting in its window as partition windows.
 */
class ProfileSummaryTest {

    private static final String LOOP = "java/lang/Thread.run;dev/nicsim/fabric/run/Runner.run;"
        + "dev/nicsim/sim/Simulator.runUntil_[j]";
    private static final String PORT = LOOP + ";dev/nicsim/sim/EgressPort.onEvent_[i]";

    /** A sequential run's stacks: 200 samples. */
    private static final String SEQUENTIAL = String.join("\n",
        PORT + ";dev/nicsim/sw/SwitchAsic.receive;dev/nicsim/sw/SharedBufferMmu.receive 25",
        PORT + ";dev/nicsim/sw/SwitchAsic.receive_[i] 15",
        PORT + ";dev/nicsim/nic/RoceNic.receive;dev/nicsim/nic/QpTable.get 30",
        PORT + ";dev/nicsim/sim/EgressPort.kick;dev/nicsim/sw/SwitchPort.nextDataPacket 20",
        PORT + ";dev/nicsim/sim/Simulator.schedule 10",
        LOOP + ";dev/nicsim/nic/RoceNic$Handler.onEvent 5",
        LOOP + " 12",
        LOOP + ";dev/nicsim/sim/Simulator.lookAhead 3",
        "start_thread;thread_native_entry;Thread::call_run;JavaThread::thread_main_inner;"
            + "CompileBroker::compiler_thread_loop;C2Compiler::compile_method 50",
        "start_thread;thread_native_entry;Thread::call_run;VMThread::run;VMThread::evaluate_operation 20",
        "",
        "dev/nicsim/fabric/cli/NicsimCommand.main;dev/nicsim/fabric/scenario/ScenarioLoader.load 10");

    /** Plus a partition worker's stacks: 6 in its loop, 4 waiting in its window. */
    private static final String PROFILE = SEQUENTIAL + "\n" + String.join("\n",
        "java/lang/Thread.run;dev/nicsim/sim/WindowScheduler$Worker.run;dev/nicsim/sim/WindowScheduler.runClaimed;"
            + "dev/nicsim/sim/PartitionedRun.advance;dev/nicsim/sim/Simulator.runUntil;dev/nicsim/sim/EgressPort.onEvent;"
            + "dev/nicsim/nic/RoceNic.receive 6",
        "java/lang/Thread.run;dev/nicsim/sim/WindowScheduler$Worker.run 3",
        "dev/nicsim/fabric/run/Runner.run;dev/nicsim/sim/PartitionedRun.run;dev/nicsim/sim/CutLink.flip 1");

    private static ProfileSummary summary(final Path dir, final String text) throws IOException {
        final Path f = dir.resolve("p.collapsed");
        Files.writeString(f, text);
        return ProfileSummary.read(f);
    }

    @Test
    void splitsByRoleAndEvent(@TempDir final Path dir) throws IOException {
        final ProfileSummary s = summary(dir, PROFILE);
        assertEquals(210, s.totalSamples());
        assertEquals(126, s.samples(ProfileSummary.EVENT_LOOP));
        assertEquals(4, s.samples(ProfileSummary.WINDOWS));
        assertEquals(50, s.samples(ProfileSummary.JIT));
        assertEquals(20, s.samples(ProfileSummary.GC_VM));
        assertEquals(10, s.samples(ProfileSummary.OTHER));
        assertEquals(40, s.samples("link delivery into SwitchAsic.receive"));
        assertEquals(36, s.samples("link delivery into RoceNic.receive"));
        assertEquals(20, s.samples("end of frame / pause end -> next frame (EgressPort.kick)"));
        assertEquals(10, s.samples("link delivery: wire FIFO head and next delivery's schedule (EgressPort.onEvent)"));
        assertEquals(5, s.samples("event: RoceNic$Handler.onEvent"));
        assertEquals(12, s.samples("kernel (run loop itself: pop, dispatch)"));
        assertEquals(3, s.samples("kernel (Simulator.lookAhead)"));
        // self: the suffix _[i] is stripped, so the two SwitchAsic.receive-ending lines' leaf counts
        assertEquals(15, s.selfSamples("dev/nicsim/sw/SwitchAsic.receive"));
        assertEquals(12, s.selfSamples("dev/nicsim/sim/Simulator.runUntil"));
        assertEquals(25, s.selfSamples("dev/nicsim/sw/SharedBufferMmu.receive"));
    }

    @Test
    void printsSharesOfAllSamples(@TempDir final Path dir) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        summary(dir, SEQUENTIAL).print(new PrintStream(bytes, true, StandardCharsets.UTF_8), 3);
        final String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.startsWith("200 samples\n"), out);
        assertTrue(out.matches("(?s).*event loop \\(Simulator.runUntil\\) +120 +60\\.0 %.*"), out);
        assertTrue(out.matches("(?s).*JIT compiler threads +50 +25\\.0 %.*"), out);
        assertTrue(out.matches("(?s).*link delivery into RoceNic.receive +30 +15\\.0 %.*"), out);
        // top 3 self: C2Compiler 50, QpTable.get 30, then SharedBufferMmu.receive 25
        final String top = out.substring(out.indexOf("hottest methods"));
        assertEquals(4, top.split("\n").length, top);
        assertTrue(top.indexOf("C2Compiler::compile_method") < top.indexOf("dev.nicsim.nic.QpTable.get"), top);
        assertTrue(top.indexOf("dev.nicsim.nic.QpTable.get") < top.indexOf("dev.nicsim.sw.SharedBufferMmu.receive"), top);
    }

    @Test
    void malformedLineNamesFileAndLine(@TempDir final Path dir) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> summary(dir, "a;b 3\na;b;c x\n"));
        assertTrue(e.getMessage().endsWith("p.collapsed: line 2: expected 'frame;frame;... COUNT' with a positive integer COUNT"),
            e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> summary(dir, "a;b 0\n"));
        final IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> summary(dir, "\n"));
        assertTrue(empty.getMessage().contains("no samples"), empty.getMessage());
    }
}
