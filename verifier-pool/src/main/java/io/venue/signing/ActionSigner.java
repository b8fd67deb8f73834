package io.venue.signing;

import io.venue.action.ActionPayload;
import io.venue.action.AdminAction;
import io.venue.action.Address;
import io.venue.action.Signature65;
import io.venue.action.SignedAction;
import io.venue.action.json.CanonicalJson;
import io.venue.auth.AdminActionText;
import io.venue.crypto.ActionDigest;
import io.venue.crypto.Eip191;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.crypto.Secp256k1Signer;

import java.nio.charset.StandardCharsets;

/**
 * The client side of spec 5.2: canonical JSON, v2 digest, secp256k1 signature. Used by the command-line
 * tool, the load generator and tests. Not thread safe.
 */
public final class ActionSigner
{
    private final CanonicalJson canonical = new CanonicalJson();
    private final ActionDigest digest;
    private final Secp256k1Signer signer;
    private final byte[] hash = new byte[32];

    public ActionSigner(final long chainId, final Address verifyingContract, final Secp256k1KeyPair key)
    {
        this.digest = new ActionDigest(chainId, verifyingContract);
        this.signer = new Secp256k1Signer(key);
    }

    public Address address()
    {
        return signer.keyPair().address();
    }

    /** The v2 digest of the payload: the id of the order it places. */
    public byte[] digestV2(final ActionPayload payload)
    {
        final int length = canonical.encode(payload);
        final byte[] out = new byte[32];
        digest.v2(canonical.writer().buffer(), 0, length, out, 0);
        return out;
    }

    /** The v1 digest (no chain binding), for migration tests only. */
    public byte[] digestV1(final ActionPayload payload)
    {
        final int length = canonical.encode(payload);
        final byte[] out = new byte[32];
        digest.v1(canonical.writer().buffer(), 0, length, out, 0);
        return out;
    }

    /**
     * Signs an admin action the documented way (docs/MESSAGE-TEXTS.md section 6): EIP-191 personal_sign of its admin
     * text, which quotes the v2 digest.
     *
     * @throws IllegalArgumentException for an action that is not an admin action.
     */
    public SignedAction signAdminText(final ActionPayload payload)
    {
        if (!(payload.action() instanceof AdminAction))
        {
            throw new IllegalArgumentException("only an admin action is signed over the admin text, not " +
                payload.action().getClass().getSimpleName());
        }
        final byte[] text = AdminActionText.of(digestV2(payload)).text().getBytes(StandardCharsets.US_ASCII);
        return new SignedAction(payload, new Signature65(signer.sign(Eip191.personalHash(text), PreimageMode.RAW)));
    }

    public SignedAction sign(final ActionPayload payload, final PreimageMode mode)
    {
        final int length = canonical.encode(payload);
        digest.v2(canonical.writer().buffer(), 0, length, hash, 0);
        return new SignedAction(payload, new Signature65(signer.sign(hash, mode)));
    }
}
