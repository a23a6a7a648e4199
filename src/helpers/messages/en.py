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
    # helpers.course.homework.checks: check("<exercise id>") in a homework notebook
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
    # day 5: loops, claims, compiled and the day's conclusions
    # receipts: a GPU's figures beside this machine's (helpers.receipts)
    # day 8: distributed, ranks, ddp_train and the day's conclusions
}
