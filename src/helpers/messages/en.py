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
    "receipts.label.yours": "{machine}, {day} (your receipt)",
    "receipts.label.reference": "{machine}, {day} (the course's reference, not yours)",
    "receipts.label.here": "this machine ({device}), now",
    "receipts.none": (
        "No receipt of a GPU here yet, so only this machine's figures are shown. On a rented GPU "
        "(Colab, Kaggle, a GPU platform) run `python -m helpers receipt --out my-gpu.json`, copy "
        "the file into `{folder}`, and run this cell again."
    ),
    "receipts.broken": "Skipped a broken receipt: {problem}",
    "receipts.source.yours": "Beside this machine: **{label}**, from `{file}`.",
    "receipts.source.reference": (
        "Beside this machine: **{label}**, from `{file}`: measured by the course, not by you. "
        "Your own receipts go in the `receipts/` folder and replace it."
    ),
    "receipts.source.also": "Also: **{label}**, from `{file}`.",
    "receipts.missing": "not measured",
    "receipts.card.device": "device",
    "receipts.card.memory": "memory",
    "receipts.card.driver": "driver / CUDA",
    "receipts.card.torch": "PyTorch version",
    "receipts.card.cpu": "host CPU, threads",
    "receipts.copy.h2d_pageable": "host to device, pageable memory",
    "receipts.copy.h2d_pinned": "host to device, pinned memory",
    "receipts.copy.d2h_pageable": "device to host, pageable memory",
    "receipts.copy.d2h_pinned": "device to host, pinned memory",
    "receipts.copy.on_device": "within the device (on a CPU: memory to memory)",
    "receipts.day02.pinned": (
        "On that device a pinned copy of {size:,} bytes ran {ratio:.1f}× as fast as a pageable "
        "one: a pageable copy goes through a pinned staging buffer first."
    ),
    "receipts.day05.item": "one `.item()`, alone",
    "receipts.day05.recording": "one recording inside the loop (its price `b`)",
    "receipts.day05.launches": "launching one epoch's kernels (the launch floor)",
    "receipts.day05.lesson": "an epoch of the lesson loop ({lesson})",
    "receipts.day05.kept": "an epoch with the losses kept on the device (no waits)",
    "receipts.day05.fastest": "an epoch of the fastest variant ({fastest})",
    "receipts.day05.student": "the student's run priced: 20,000 epochs, 200 recordings",
    "receipts.day05.no_busy": (
        "This receipt has no busy share of the lesson loop, so the third part is not judged on it."
    ),
    "receipts.day05.verdict": (
        "**The third part (asynchronous submission):** here *{here}*; on {label} *{there}*. "
        "{evidence}"
    ),
    "receipts.day05.median": (
        "(The receipt keeps each variant's median speed-up, not the lower quartile of its rounds: "
        "the verdict above used the median.)"
    ),
    "receipts.day06.none": (
        "No GPU curve to draw beside this machine's: no receipt of a GPU here. On a rented GPU "
        "run `python -m helpers receipt --out my-gpu.json`, copy the file into `{folder}`, and run "
        "this notebook again; until then the crossover below is bounded from the lesson's one run."
    ),
    "receipts.day07.device_busy_share": "device busy share",
    "receipts.day07.MFU": "MFU",
    "receipts.day07.peak": "peak FLOP/s (a large matrix product)",
    "receipts.day07.bandwidth": "memory bandwidth (a large copy within the device)",
    "receipts.day07.pinned": "host to device copy, pinned memory",
    "receipts.day08.none": (
        "No receipt of two or more GPUs here, so no all-reduce over a real link to show. On a "
        "machine with several GPUs run `python -m helpers receipt --out my-gpus.json` and copy "
        "the file into `{folder}`."
    ),
    "receipts.day08.column": "all-reduce bus bandwidth, {gpus} GPUs: {label}",
    "receipts.day08.ratio": (
        "**{method}** here: {here} fitted; the receipt's GPUs reached {there}, "
        "{ratio:,.0f}× as much."
    ),
    # day 8: distributed, ranks, ddp_train and the day's conclusions
}
