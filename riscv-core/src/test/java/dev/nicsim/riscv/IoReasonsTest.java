package dev.nicsim.riscv;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link IoReasons#why}: the reason of an I/O error in words, never only the path the JDK puts in
 * the message (issue 23 defect 9, found in the recheck: {@code firmware info} on a file it may not read
 * said {@code unreadable.elf: cannot read: unreadable.elf}, a bad UTF-8 scenario {@code Input length = 1}).
 */
class IoReasonsTest {
    @Test
    void eachKindOfErrorSaysWhy() {
        assertEquals("permission denied", IoReasons.why(new AccessDeniedException("/x/a.elf")));
        assertEquals("no such file or directory", IoReasons.why(new NoSuchFileException("/x/a.elf")));
        assertEquals("not a directory", IoReasons.why(new NotDirectoryException("/x/f")));
        assertEquals("/x/f exists and is not a directory", IoReasons.why(new java.nio.file.FileAlreadyExistsException("/x/f")));
        assertEquals("not UTF-8 text (a malformed byte sequence)", IoReasons.why(new MalformedInputException(1)));
        assertEquals("is a directory", IoReasons.why(new FileSystemException("/x/d", null, "Is a directory")));
        assertEquals("no space left on device", IoReasons.why(new IOException("No space left on device")));
        assertEquals("FileSystemException", IoReasons.why(new FileSystemException("/x/only-the-path")));
        assertEquals("IOException", IoReasons.why(new IOException()));
    }
}
