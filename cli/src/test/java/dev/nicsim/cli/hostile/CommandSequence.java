package dev.nicsim.cli.hostile;

import dev.nicsim.cli.NicsimCommand;

import java.util.ArrayList;
import java.util.List;

/**
 * For {@link NothingBesideTheOutputsTest}: runs several {@code nicsim} command lines in one JVM
 * (started in an empty directory), separated by an argument {@code ::}, and prints
 * {@code #exit N} on standard error after each.
 */
public final class CommandSequence {
    private CommandSequence() {
    }

    /**
     * @param args command lines separated by {@code ::}
     */
    public static void main(final String[] args) {
        final List<String> cmd = new ArrayList<>();
        for (int i = 0; i <= args.length; i++) {
            if (i == args.length || args[i].equals("::")) {
                final int code = NicsimCommand.execute(cmd.toArray(new String[0]));
                System.out.flush();
                System.err.println("#exit " + code);
                cmd.clear();
            } else {
                cmd.add(args[i]);
            }
        }
        System.exit(0);
    }
}
