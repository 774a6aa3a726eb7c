package dev.nicsim.riscv;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.MalformedInputException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why an I/O operation failed, in words: the JDK's file-system exceptions carry
 * only the path as their message ({@code AccessDeniedException: /x/a.elf}), and a decoding error says
 * {@code Input length = 1}, which hides whether a file was missing, forbidden, in the way, not text,
 * or the disk full. Used by every reader and writer whose one-line errors name a file (the file is
 * named by the caller; this gives only the reason). Shared by riscv-core, microcode and fabric.
 *
 * <p>Thread-safety: stateless.
 */
public final class IoReasons {
    private IoReasons() {
    }

    /**
     * The reason of an I/O error, without the path the caller names (for a file in the way of a
     * directory to create, that file).
     *
     * @param e the error
     * @return e.g. {@code "permission denied"}, {@code "no such file or directory"},
     *         {@code "/x/f exists and is not a directory"}, {@code "not a
     *         directory"}, {@code "is a directory"}, {@code "no space left on device"}, {@code "not UTF-8
     *         text (a malformed byte sequence)"}; else the error's own message (or its class name when it
     *         has none)
     */
    public static String why(final IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileAlreadyExistsException x) {
            // what creating a directory (or a parent of a file to write) meets: a file in the way
            return (x.getFile() != null ? x.getFile() + " " : "") + "exists and is not a directory";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "directory not empty";
        }
        if (e instanceof MalformedInputException) {
            return "not UTF-8 text (a malformed byte sequence)";
        }
        if (e instanceof CharacterCodingException) {
            return "not UTF-8 text";
        }
        final String m = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        if (m == null || m.isBlank() || e instanceof FileSystemException f2 && m.equals(f2.getFile())) {
            return e.getClass().getSimpleName();
        }
        // the JDK's own texts ("Is a directory", "No space left on device", "x (Permission denied)"): lower-case start
        return Character.toLowerCase(m.charAt(0)) + m.substring(1);
    }
}
