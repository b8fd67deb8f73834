package io.venue.verifier;

import io.venue.action.ActionPayload;
import io.venue.action.AdminAction;
import io.venue.action.Address;
import io.venue.action.SignedAction;
import io.venue.action.json.CanonicalJson;
import io.venue.action.json.CanonicalJsonWriter;
import io.venue.action.json.ParseErrorCode;
import io.venue.action.json.ParseResult;
import io.venue.action.json.SignedActionParser;
import io.venue.action.typed.TypedOrder;
import io.venue.auth.AdminActionText;
import io.venue.crypto.ActionDigest;
import io.venue.crypto.Eip191;
import io.venue.crypto.Keccak256;
import io.venue.crypto.RecoveryStatus;
import io.venue.crypto.Secp256k1Recovery;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.venue.verifier.VerificationResultLayout.ACCOUNT;
import static io.venue.verifier.VerificationResultLayout.ADDRESS_LENGTH;
import static io.venue.verifier.VerificationResultLayout.CONNECTION_ID;
import static io.venue.verifier.VerificationResultLayout.CORRELATION_ID;
import static io.venue.verifier.VerificationResultLayout.DETAIL;
import static io.venue.verifier.VerificationResultLayout.DIGEST;
import static io.venue.verifier.VerificationResultLayout.DIGEST_LENGTH;
import static io.venue.verifier.VerificationResultLayout.DIGEST_VERSION;
import static io.venue.verifier.VerificationResultLayout.OUTCOME;
import static io.venue.verifier.VerificationResultLayout.PERSONAL_SIGNER;
import static io.venue.verifier.VerificationResultLayout.RAW_SIGNER;
import static io.venue.verifier.VerificationResultLayout.SIGNATURE;
import static io.venue.verifier.VerificationResultLayout.SIGNATURE_LENGTH;
import static io.venue.verifier.VerificationResultLayout.TEXT;
import static io.venue.verifier.VerificationResultLayout.TEXT_FORM;
import static io.venue.verifier.VerificationResultLayout.TEXT_IS_COMMAND;
import static io.venue.verifier.VerificationResultLayout.TEXT_LENGTH;

/**
 * Verifies one SignedAction body: strict parse, canonical re-encode, v2 digest, signer recovery in raw
 * then personal mode (then, for an admin action, over its admin text; and v1 when the migration flag is on), and writes
 * the result record; or one typed order of a
 * binary lane ({@link #verifyTyped}), whose canonical JSON is written from its fields instead of parsed. Made with the
 * delegates it knows, it saves recoveries (its second constructor); an audit's recovers every candidate in the usual
 * order. One instance per verifier thread; it shares only the delegates it reads.
 */
public final class ActionVerifier
{
    private final SignedActionParser parser;
    private final CanonicalJson canonical = new CanonicalJson();
    private final ActionDigest digest;
    private final Secp256k1Recovery recovery;
    private final Keccak256 keccak = new Keccak256();
    private final boolean acceptV1;
    private final DelegateSigners delegates;
    /** Null for a verifier that recovers every candidate in the usual order (an audit's). */
    private final PersonalModeAccounts personalFirst;
    /** Null: a verified result carries the canonical JSON, and the sequencer writes the command from it. */
    private CommandWriter commands;
    private int maxCommandLength;
    /** The action being verified, for {@link #commands}; null when it is only canonical JSON. */
    private ActionPayload payload;
    private boolean mmLimitClass;

    private byte[] body = new byte[4096];
    private final byte[] v2Hash = new byte[DIGEST_LENGTH];
    private final byte[] v1Hash = new byte[DIGEST_LENGTH];
    private final byte[] personalHash = new byte[DIGEST_LENGTH];
    private final byte[] signature = new byte[65];
    private final byte[] account = new byte[ADDRESS_LENGTH];
    private final byte[] rawSigner = new byte[ADDRESS_LENGTH];
    private final byte[] personalSigner = new byte[ADDRESS_LENGTH];
    private final byte[] v1Signer = new byte[ADDRESS_LENGTH];
    /** Whether the request being verified is an admin action, which may also be signed over its admin text. */
    private boolean adminAction;
    private final byte[] adminText = new byte[AdminActionText.LENGTH];
    private final byte[] adminHash = new byte[DIGEST_LENGTH];
    private final byte[] adminSigner = new byte[ADDRESS_LENGTH];

    public ActionVerifier(
        final long chainId,
        final Address verifyingContract,
        final Secp256k1Recovery recovery,
        final boolean acceptV1,
        final int maxBodyBytes)
    {
        this(chainId, verifyingContract, recovery, acceptV1, maxBodyBytes, null);
    }

    /**
     * A verifier that saves recoveries: a raw-mode signature by one of the {@code delegates} (the agents and vault
     * owners known so far) costs one, and so does the next action of an account whose last one matched in personal
     * mode ({@link PersonalModeAccounts}). The candidate it did not recover is left zero. The other constructor's
     * verifier recovers every candidate in the usual order, as an audit of the records needs.
     */
    public ActionVerifier(
        final long chainId,
        final Address verifyingContract,
        final Secp256k1Recovery recovery,
        final boolean acceptV1,
        final int maxBodyBytes,
        final DelegateSigners delegates)
    {
        this.parser = new SignedActionParser(maxBodyBytes);
        this.digest = new ActionDigest(chainId, verifyingContract);
        this.recovery = recovery;
        this.acceptV1 = acceptV1;
        this.delegates = delegates == null ? DelegateSigners.NONE : delegates;
        this.personalFirst = delegates == null ? null : new PersonalModeAccounts();
    }

    /**
     * Makes each verified result carry its journal command, written by {@code writer}, instead of the canonical JSON
     * (the result's text form says which), as long as the command is at most {@code maxLength} bytes: the single writer
     * then only stamps it. A longer command (a batch of legs whose JSON is shorter than their fixed-width records)
     * keeps the JSON form.
     */
    public ActionVerifier writesCommands(final CommandWriter writer, final int maxLength)
    {
        this.commands = writer;
        this.maxCommandLength = maxLength;
        return this;
    }

    /**
     * Verifies {@code src[offset, offset + length)} and writes the result record at {@code out[0..)}.
     *
     * @return the length of the result record.
     */
    public int verify(
        final DirectBuffer src,
        final int offset,
        final int length,
        final long connectionId,
        final long correlationId,
        final MutableDirectBuffer out)
    {
        return verify(src, offset, length, connectionId, correlationId, out, false);
    }

    /**
     * As above; with {@code v2Only} (a submit of the MM lane, spec 5.1: blake3 v2 per order) the v1 digest is not
     * tried, whatever the migration flag says.
     */
    public int verify(
        final DirectBuffer src,
        final int offset,
        final int length,
        final long connectionId,
        final long correlationId,
        final MutableDirectBuffer out,
        final boolean v2Only)
    {
        if (body.length < length)
        {
            body = new byte[Math.max(length, body.length * 2)];
        }
        src.getBytes(offset, body, 0, length);
        return verify(body, 0, length, connectionId, correlationId, out, v2Only);
    }

    /** As the first, for a body already on the heap. */
    public int verify(
        final byte[] src,
        final int offset,
        final int length,
        final long connectionId,
        final long correlationId,
        final MutableDirectBuffer out)
    {
        return verify(src, offset, length, connectionId, correlationId, out, false);
    }

    private int verify(
        final byte[] src,
        final int offset,
        final int length,
        final long connectionId,
        final long correlationId,
        final MutableDirectBuffer out,
        final boolean v2Only)
    {
        out.putLong(CONNECTION_ID, connectionId);
        out.putLong(CORRELATION_ID, correlationId);

        final ParseResult parsed = parser.parse(src, offset, length);
        if (!parsed.isOk())
        {
            return malformed(parsed, out);
        }

        final SignedAction action = parsed.signedAction();
        adminAction = action.payload().action() instanceof AdminAction;
        action.signature().copyTo(signature, 0);
        action.payload().account().copyTo(account, 0);
        final int jsonLength = canonical.encode(action.payload());
        payload = action.payload();
        mmLimitClass = v2Only;
        return verifyCanonical(out, v2Only, canonical.writer().buffer(), jsonLength);
    }

    /**
     * Verifies a typed order ({@link TypedOrder}: {@code src[offset, offset + length)} is a whole record) and writes
     * the result record at {@code out[0..)}: the canonical JSON is derived from the record's fields instead of parsed,
     * and from there on it is {@link #verify}'s path, so the record is the one {@link #verify} writes for the same
     * action's JSON body. A record the action model refuses, or of another length, is MALFORMED with the JSON route's
     * code and field path (and its message, where JSON can spell the value); nothing of this verifier's state changes
     * for it.
     *
     * @param v2Only as for {@link #verify(DirectBuffer, int, int, long, long, MutableDirectBuffer, boolean)}.
     * @return the length of the result record.
     */
    public int verifyTyped(
        final DirectBuffer src,
        final int offset,
        final int length,
        final long connectionId,
        final long correlationId,
        final MutableDirectBuffer out,
        final boolean v2Only)
    {
        out.putLong(CONNECTION_ID, connectionId);
        out.putLong(CORRELATION_ID, correlationId);
        if (length != TypedOrder.LENGTH)
        {
            return malformed(out, ParseErrorCode.INVALID_BODY_SIZE, "",
                "a typed order is " + TypedOrder.LENGTH + " bytes, got " + length);
        }
        final long market = TypedOrder.market(src, offset);
        final TypedOrder.Fault fault = TypedOrder.check(src, offset, market);
        if (fault != null)
        {
            return malformed(out, fault.code(), fault.path(), fault.message(src, offset));
        }
        adminAction = false;
        src.getBytes(offset + TypedOrder.SIGNATURE, signature, 0, SIGNATURE_LENGTH);
        src.getBytes(offset + TypedOrder.ACCOUNT, account, 0, ADDRESS_LENGTH);
        final CanonicalJsonWriter writer = canonical.writer().reset();
        TypedOrder.writePayload(src, offset, market, writer);
        // the command is written from the typed fields too: no JSON is parsed on this route
        payload = commands == null ? null : TypedOrder.toSignedAction(src, offset, market).payload();
        mmLimitClass = v2Only;
        return verifyCanonical(out, v2Only, writer.buffer(), writer.length());
    }

    /**
     * From the canonical JSON on: the v2 digest, the recoveries and the result record, given the request's
     * {@link #signature} and {@link #account}.
     */
    private int verifyCanonical(final MutableDirectBuffer out, final boolean v2Only, final byte[] json,
        final int jsonLength)
    {
        digest.v2(json, 0, jsonLength, v2Hash, 0);

        Arrays.fill(rawSigner, (byte)0);
        Arrays.fill(personalSigner, (byte)0);
        // null until the personal-mode candidate is recovered
        RecoveryStatus personal = null;
        if (personalFirst != null && personalFirst.contains(account))
        {
            // the account's last action matched in personal mode: that mode first, the raw candidate left zero on a hit
            personal = recoverPersonal();
            if (personal != RecoveryStatus.OK && personal != RecoveryStatus.NO_POINT)
            {
                // v, r or s out of range: bad whatever the hash, in every mode and version
                return record(out, VerificationOutcome.BAD_SIGNATURE, personal.ordinal(), 2, json, jsonLength);
            }
            if (personal == RecoveryStatus.OK && Arrays.equals(personalSigner, account))
            {
                return record(out, VerificationOutcome.VERIFIED, SignerMatch.ACCOUNT_PERSONAL.ordinal(), 2,
                    json, jsonLength);
            }
            if (personal == RecoveryStatus.OK && delegates.signsFor(account, personalSigner))
            {
                return record(out, VerificationOutcome.VERIFIED, SignerMatch.OTHER.ordinal(), 2, json, jsonLength);
            }
            personalFirst.remove(account);
        }
        final RecoveryStatus raw = recovery.recover(v2Hash, 0, signature, 0, rawSigner, 0);
        if (raw != RecoveryStatus.OK && raw != RecoveryStatus.NO_POINT)
        {
            return record(out, VerificationOutcome.BAD_SIGNATURE, raw.ordinal(), 2, json, jsonLength);
        }
        if (raw == RecoveryStatus.OK && (Arrays.equals(rawSigner, account) || delegates.signsFor(account, rawSigner)))
        {
            // the account, or one of its agents or its vault owner, signed in raw mode: the personal candidate is no
            // one's address and stays zero (also when it was recovered first), which authorizes nobody
            Arrays.fill(personalSigner, (byte)0);
            final SignerMatch match = Arrays.equals(rawSigner, account) ? SignerMatch.ACCOUNT_RAW : SignerMatch.OTHER;
            return record(out, VerificationOutcome.VERIFIED, match.ordinal(), 2, json, jsonLength);
        }
        if (personal == null)
        {
            personal = recoverPersonal();
        }
        if (personal == RecoveryStatus.OK && Arrays.equals(personalSigner, account))
        {
            learnPersonalMode();
            return record(out, VerificationOutcome.VERIFIED, SignerMatch.ACCOUNT_PERSONAL.ordinal(), 2,
                json, jsonLength);
        }
        if (adminAction && recoverAdminText() == RecoveryStatus.OK && Arrays.equals(adminSigner, account))
        {
            // the operator signed the documented admin text: the digest's candidates are no one's, so both stay zero
            Arrays.fill(rawSigner, (byte)0);
            Arrays.fill(personalSigner, (byte)0);
            return record(out, VerificationOutcome.VERIFIED, SignerMatch.ACCOUNT_ADMIN_TEXT.ordinal(), 2, json,
                jsonLength);
        }
        if (raw == RecoveryStatus.NO_POINT && personal != RecoveryStatus.OK)
        {
            // no key in either mode (a recovered point at infinity depends on the hash: the other mode was tried)
            return record(out, VerificationOutcome.BAD_SIGNATURE, raw.ordinal(), 2, json, jsonLength);
        }
        if (personal == RecoveryStatus.OK && delegates.signsFor(account, personalSigner))
        {
            learnPersonalMode();
        }
        if (acceptV1 && !v2Only)
        {
            final SignerMatch v1Match = matchV1(json, jsonLength);
            if (v1Match != null)
            {
                return record(out, VerificationOutcome.VERIFIED, v1Match.ordinal(), 1, json, jsonLength);
            }
        }
        return record(out, VerificationOutcome.VERIFIED, SignerMatch.OTHER.ordinal(), 2, json, jsonLength);
    }

    /** Recovers the personal-mode (EIP-191) candidate over the v2 digest into {@link #personalSigner}. */
    private RecoveryStatus recoverPersonal()
    {
        Eip191.personalHash32(keccak, v2Hash, 0, personalHash, 0);
        return recovery.recover(personalHash, 0, signature, 0, personalSigner, 0);
    }

    /**
     * Recovers the signer of the admin text quoting the v2 digest (docs/MESSAGE-TEXTS.md section 6: EIP-191 over
     * "Service Admin Action", a line feed, "digest:0x" and the digest in lowercase hex) into {@link #adminSigner}.
     */
    private RecoveryStatus recoverAdminText()
    {
        AdminActionText.write(v2Hash, 0, adminText);
        Eip191.personalHash(keccak, adminText, 0, adminText.length, adminHash, 0);
        return recovery.recover(adminHash, 0, signature, 0, adminSigner, 0);
    }

    private void learnPersonalMode()
    {
        if (personalFirst != null)
        {
            personalFirst.add(account);
        }
    }

    /** v1 is accepted only when it recovers to the account itself; the v2 candidates stay in the record. */
    private SignerMatch matchV1(final byte[] json, final int jsonLength)
    {
        final byte[] candidate = v1Signer;
        digest.v1(json, 0, jsonLength, v1Hash, 0);
        if (recovery.recover(v1Hash, 0, signature, 0, candidate, 0) == RecoveryStatus.OK &&
            Arrays.equals(candidate, account))
        {
            return SignerMatch.ACCOUNT_RAW_V1;
        }
        Eip191.personalHash32(keccak, v1Hash, 0, personalHash, 0);
        if (recovery.recover(personalHash, 0, signature, 0, candidate, 0) == RecoveryStatus.OK &&
            Arrays.equals(candidate, account))
        {
            return SignerMatch.ACCOUNT_PERSONAL_V1;
        }
        return null;
    }

    private int record(
        final MutableDirectBuffer out,
        final VerificationOutcome outcome,
        final int detail,
        final int digestVersion,
        final byte[] json,
        final int jsonLength)
    {
        out.putByte(OUTCOME, (byte)outcome.ordinal());
        out.putByte(DETAIL, (byte)detail);
        out.putByte(DIGEST_VERSION, (byte)digestVersion);
        out.putByte(DIGEST_VERSION + 1, (byte)0);
        // the v2 digest is always the one reported: it is the order id, whichever version was signed
        out.putBytes(DIGEST, v2Hash, 0, DIGEST_LENGTH);
        out.putBytes(RAW_SIGNER, rawSigner, 0, ADDRESS_LENGTH);
        out.putBytes(PERSONAL_SIGNER, personalSigner, 0, ADDRESS_LENGTH);
        out.putBytes(ACCOUNT, account, 0, ADDRESS_LENGTH);
        out.putBytes(SIGNATURE, signature, 0, SIGNATURE_LENGTH);
        out.setMemory(SIGNATURE + SIGNATURE_LENGTH, TEXT_LENGTH - SIGNATURE - SIGNATURE_LENGTH, (byte)0);
        final ActionPayload action = payload;
        payload = null;
        if (outcome == VerificationOutcome.VERIFIED && commands != null && action != null)
        {
            final int length = commands.write(action, v2Hash, detail, rawSigner, personalSigner, signature,
                mmLimitClass, out, TEXT);
            if (length <= maxCommandLength)
            {
                out.putByte(TEXT_FORM, TEXT_IS_COMMAND);
                out.putInt(TEXT_LENGTH, length);
                return TEXT + length;
            }
        }
        out.putInt(TEXT_LENGTH, jsonLength);
        out.putBytes(TEXT, json, 0, jsonLength);
        return TEXT + jsonLength;
    }

    private int malformed(final ParseResult parsed, final MutableDirectBuffer out)
    {
        return malformed(out, parsed.code(), parsed.field(), parsed.message());
    }

    private static int malformed(final MutableDirectBuffer out, final ParseErrorCode code, final String field,
        final String message)
    {
        out.putByte(OUTCOME, (byte)VerificationOutcome.MALFORMED.ordinal());
        out.putByte(DETAIL, (byte)code.ordinal());
        out.putByte(DIGEST_VERSION, (byte)0);
        out.putByte(DIGEST_VERSION + 1, (byte)0);
        out.setMemory(DIGEST, TEXT_LENGTH - DIGEST, (byte)0);
        final byte[] text = (field + "\n" + message).getBytes(StandardCharsets.UTF_8);
        out.putInt(TEXT_LENGTH, text.length);
        out.putBytes(TEXT, text);
        return TEXT + text.length;
    }
}
