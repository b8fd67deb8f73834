/**
 * Producing signed actions (the client side): for tools, load generation and tests.
 */
package io.venue.signing;
