/**
 * Text that users control and others read: byte strings kept byte for byte ({@link
 * dev.sluice.common.text.RawText}) and the rule that keeps one job's fields from forging lines in
 * another user's output ({@link dev.sluice.common.text.ControlCharacters}). Pure functions.
 */
package dev.sluice.common.text;
