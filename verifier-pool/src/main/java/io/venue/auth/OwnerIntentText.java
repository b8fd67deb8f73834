package io.venue.auth;

/**
 * A message an owner wallet (or the operator key) signs with EIP-191 personal_sign. The text is ASCII,
 * lines joined with '\n' and no final line feed; its first line names the message so that no text can
 * be read as another.
 */
public interface OwnerIntentText
{
    /** The exact text that is signed. */
    String text();
}
