"""The course's printed sentences in English (the names are the contract; see helpers.messages)."""

MESSAGES = {
    # helpers.show.compare_guess: a learner's prediction against the run
    "guess.none": "No guess written: write one in the cell above and run it again, then this cell.",
    "guess.words": "You guessed {guess}; the run: {measured}.",
    "guess.choice": "You guessed {guess}; the run gave {measured}: {verdict}.",
    "guess.right": "right",
    "guess.wrong": "not this time",
    "guess.close": "You guessed {guess}; the run measured {measured}: close.",
    "guess.high": "You guessed {guess}; the run measured {measured}: too high.",
    "guess.low": "You guessed {guess}; the run measured {measured}: too low.",
    "guess.high_by": "You guessed {guess}; the run measured {measured}: {ratio:.0f}x too high.",
    "guess.low_by": "You guessed {guess}; the run measured {measured}: {ratio:.0f}x too low.",
    # helpers.course.checks: check("<exercise id>") in a homework notebook
    "check.head": "{exercise}: {passed} of {total} checks passed",
    "check.well_done": " - well done!",
    "check.mark.passed": "PASS",
    "check.mark.failed": "FAIL",
    "check.mark.error": "ERROR",
    "check.mark.not answered": "TODO",
    "check.mark.other": "SKIP",
    "check.false": "the condition is False",
    "check.not_answered": (
        "not answered yet: replace `{placeholder}` in the EXERCISE {exercise} cell, "
        "then run that cell"
    ),
    "check.name_error": (
        "NameError: {error}. Did you run the EXERCISE {exercise} cell and the cells above?"
    ),
    "check.bad_id": "{exercise!r} is not an exercise id; ids look like 'day00.device'.",
    "check.unknown": (
        "No exercise {exercise!r} in {path}. Its exercises are: {known}. If you deleted its TEST "
        "cell, restore the notebook's test cells from the course repository."
    ),
    # days 0-4, 6 and 7: the lesson modules' findings and verdicts (one block per module)
    # helpers.stats: intervals, differences, fitted lines
    "stats.interval": "{value} ({confidence:.0%} interval {low} to {high})",
    "stats.zero.excluded": "the interval excludes zero",
    "stats.zero.included": (
        "the interval includes zero, so these {n} measurements cannot tell it from zero"
    ),
    "stats.difference": "{a} minus {b} is {value}: {zero}.",
    "stats.difference.larger": (
        "{a} minus {b} is {value}: {zero}, so {larger} is larger than {smaller}."
    ),
    "stats.rows.head": "{a} alone got {a_only} row(s) right, {b} alone {b_only}, of {n}",
    "stats.rows.same": "{head}: exactly the same rows right, so nothing tells them apart.",
    "stats.rows.better": (
        "{head}: too lopsided for luck (exact test, p = {p:.3f}): **{better}** is better."
    ),
    "stats.rows.luck": (
        "{head}: that split could be luck (exact test, p = {p:.2f}), so these rows cannot tell "
        "the two apart, and the simpler model is the one to keep."
    ),
    "stats.price": "The price of {what} is {value}: {zero}",
    "stats.price.noise": (
        "{price}. These runs cannot tell a price from noise: across the measured range it "
        "could still add up to {most_ms:.1f} ms, next to a = {a_s:.3f} s."
    ),
    "stats.price.negative": (
        "{price}, but it is negative: not a real cost but a drift or an ordering effect "
        "in the runs. Re-run, with more repeats."
    ),
    "stats.price.above_noise": (
        "{price}; it changes the time by {effect_ms:.1f} ms across the measured "
        "range, larger than the run-to-run noise ({noise_ms:.1f} ms)."
    ),
    "stats.price.below_noise": (
        "{price}; it changes the time by {effect_ms:.1f} ms across the measured "
        "range, smaller than the run-to-run noise ({noise_ms:.1f} ms)."
    ),
    "stats.bend": "the bend across the measured range is {value}",
    "stats.bend.sharpness": (
        "these runs would have detected (with probability {power:.0%}) a bend of "
        "{bend_ms:.1f} ms or more, and a price of {what} of {slope_us:.2f} µs or more"
    ),
    "stats.line.straight": (
        "The straight line stands: {bend}; {zero}. Not proved straight, though: {sharpness}."
    ),
    "stats.line.upwards": (
        "The straight line does not fit: {bend}; {zero}, so the time curves upwards ({what} "
        "costs more, the more of them there are). For scale: {sharpness}."
    ),
    "stats.line.downwards": (
        "The straight line does not fit: {bend}; {zero}, so the time curves downwards ({what} "
        "costs less, the more of them there are). For scale: {sharpness}."
    ),
    # day 5: loops, claims, compiled and the day's conclusions
    # receipts: a GPU's figures beside this machine's (helpers.receipts)
    # day 8: distributed, ranks, ddp_train and the day's conclusions
}
