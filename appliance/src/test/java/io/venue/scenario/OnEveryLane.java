package io.venue.scenario;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A scenario run once on every lane of {@link Lanes#ALL}; its one parameter is the {@link Lanes.Lane}. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@MethodSource("io.venue.scenario.Lanes#all")
@interface OnEveryLane
{
}
