package io.venue.appliance;

import io.venue.action.Action;
import io.venue.action.ActionPayload;
import io.venue.action.Address;
import io.venue.action.json.CanonicalJson;
import io.venue.crypto.PreimageMode;
import io.venue.crypto.Secp256k1KeyPair;
import io.venue.signing.ActionSigner;
import io.venue.entry.PendingRequests;
import io.venue.entry.Answer;
import io.venue.verifier.VerifierPool;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Admin actions the node itself submits with an operator key it holds (the demo's set-up, the configured listing):
 * signed with EIP-191 like any operator's, through the verifier pool, each waiting for its answer. They go through
 * the journal and the engine as every client's do; nothing is applied behind their back.
 */
final class OperatorActions
{
    /** How long each action waits for its answer: longer than a client's, the node's start waits on it. */
    private static final long WAIT_MS = 30_000;

    private final VerifierPool pool;
    private final PendingRequests pending;
    private final ActionSigner signer;
    private final Address operator;

    OperatorActions(final VerifierPool pool, final PendingRequests pending, final long chainId, final Address contract,
        final Secp256k1KeyPair operator)
    {
        this.pool = pool;
        this.pending = pending;
        this.signer = new ActionSigner(chainId, contract, operator);
        this.operator = operator.address();
    }

    Address operator()
    {
        return operator;
    }

    /** Signs and submits {@code action} with {@code nonce}, and waits up to 30 s for the engine's answer. */
    Answer submit(final long nonce, final Action action)
    {
        final byte[] body = CanonicalJson.signedActionBody(signer.sign(new ActionPayload(operator, nonce, null,
            System.currentTimeMillis(), action), PreimageMode.PERSONAL));
        final CompletableFuture<Answer> answer = new CompletableFuture<>();
        final long correlation = pending.register(answer::complete, WAIT_MS);
        while (!pool.offer(0, correlation, body, 0, body.length))
        {
            Thread.onSpinWait();
        }
        try
        {
            final Answer decided = answer.orTimeout(WAIT_MS, TimeUnit.MILLISECONDS).join();
            if (decided.kind == Answer.Kind.TIMED_OUT)
            {
                throw new IllegalStateException("operator action " + action + ": no answer within 30 s");
            }
            return decided;
        }
        catch (final CompletionException timedOut)
        {
            pending.forget(correlation);
            throw new IllegalStateException("operator action " + action + ": no answer within 30 s", timedOut);
        }
    }

    static boolean isOk(final Answer response)
    {
        return response.accepted();
    }
}
