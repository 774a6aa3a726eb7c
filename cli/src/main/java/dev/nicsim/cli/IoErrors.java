package dev.nicsim.cli;

import dev.nicsim.riscv.IoReasons;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One-line text of an I/O error that says why it happened: the JDK's file-system exceptions carry
 * only the path as their message ({@code /x/flows.csv}), which hides whether the file was missing,
 * in the way, or forbidden.
 *
 * <p>Thread-safety: stateless.
 */
final class IoErrors {
    private IoErrors() {
    }

    /**
     * @param e an I/O error
     * @return e.g. {@code "I/O error: /x/o: exists and is not a directory"}; for an error the JDK gives no
     *         path (a full disk), what the command writes ({@link OutputPaths#writing()}): {@code "I/O error
     *         while writing out/m: no space left on device"}
     */
    static String describe(final IOException e) {
        final String why;
        if (e instanceof NoSuchFileException) {
            why = "no such file or directory";
        } else if (e instanceof FileAlreadyExistsException) {
            why = "exists and is not a directory";
        } else if (e instanceof NotDirectoryException) {
            why = "not a directory";
        } else if (e instanceof AccessDeniedException) {
            why = "permission denied";
        } else if (e instanceof DirectoryNotEmptyException) {
            why = "directory not empty";
        } else if (e instanceof FileSystemException f) {
            why = f.getReason() != null ? f.getReason() : e.getClass().getSimpleName();
        } else {
            // a plain IOException ("No space left on device") names no file: name what the command writes
            final List<java.nio.file.Path> w = OutputPaths.writing();
            return "I/O error" + (w.isEmpty() ? "" : " while writing " + w.stream().map(Object::toString)
                .collect(Collectors.joining(", "))) + ": " + IoReasons.why(e);
        }
        final FileSystemException f = (FileSystemException) e;
        return "I/O error: " + f.getFile() + (f.getOtherFile() != null ? " -> " + f.getOtherFile() : "") + ": " + why;
    }
}
