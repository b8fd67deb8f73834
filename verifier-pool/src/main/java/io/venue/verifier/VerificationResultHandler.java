package io.venue.verifier;

/**
 * Receives verification results in the order their connection submitted the requests.
 */
@FunctionalInterface
public interface VerificationResultHandler
{
    void onResult(VerificationResult result);
}
