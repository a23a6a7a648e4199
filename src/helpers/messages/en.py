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
    # helpers.device_notes (days 2 and 3)
    "device_notes.mismatch.cuda_words": (
        "on an NVIDIA GPU it starts `{error}` and names both devices (`cuda:0`, `cpu`)"
    ),
    "device_notes.mismatch.mps_words": (
        "on a Mac's GPU (MPS, PyTorch 2.4 and later) it reads `{error}`"
    ),
    "device_notes.mismatch.on_cuda": "That is CUDA's wording; {mps}.",
    "device_notes.mismatch.on_mps": "That is how MPS words it; {cuda}.",
    "device_notes.mismatch.other": (
        "That is the `{device}` device's version of the error. The same mistake raises a "
        "`RuntimeError` on a GPU too: {cuda}; {mps}."
    ),
    "device_notes.readback.cuda": (
        "On CUDA, `non_blocking=True` to the CPU returns before the numbers have arrived: wait "
        "with `torch.cuda.synchronize()` or an event's `synchronize()` before reading them."
    ),
    "device_notes.readback.mps": (
        "On MPS too, a `non_blocking=True` copy to the CPU may return before the numbers are "
        "there (pytorch/pytorch#140296): call `torch.mps.synchronize()` before reading them."
    ),
    "device_notes.readback.other": (
        "Here the tensors live on the {device} already, so `.to('cpu')` returns the "
        "tensor itself and there is nothing to wait for. With a GPU, wait before reading a "
        "`non_blocking=True` copy: `torch.cuda.synchronize()` on an NVIDIA GPU, "
        "`torch.mps.synchronize()` on a Mac."
    ),
    "device_notes.moved.same": (
        "After `.to({target})` the weight is the same Parameter object, its numbers "
        "moved into it (PyTorch does that when the old and new tensors are of compatible "
        "kinds, as CPU and CUDA tensors are), so an optimiser made before the move still "
        "holds it. Moving to `meta` makes new Parameters instead, so the safe habit is to "
        "move the model first and make the optimiser after."
    ),
    "device_notes.moved.new": (
        "After `.to({target})` the weight is a new Parameter object: PyTorch could not move "
        "the numbers into the old one (a CPU tensor and a `{target}` tensor are not of "
        "compatible kinds), so an optimiser made before the move would keep updating the old, "
        "orphaned tensors. Move the model first, then make the optimiser."
    ),
    # helpers.preprocessing (day 4)
    "preprocessing.error.no_values": (
        "Column(s) {columns} have no values at all in the training rows: there is nothing to "
        "learn a fill value from."
    ),
    "preprocessing.error.text": (
        "Column {column!r} must hold numbers but has text such as {examples}. Write missing "
        "values as NaN (read the CSV with na_values='?')."
    ),
    "preprocessing.error.missing": (
        "Missing required column(s): {missing}. HeartPreprocessor needs all 13 features: "
        "{features}."
    ),
    "preprocessing.error.empty": "The DataFrame is empty: there are no rows to preprocess.",
    "preprocessing.error.not_frame": (
        "HeartPreprocessor needs a pandas DataFrame with named columns, got {kind}. Use the "
        "frame from helpers.data.load_heart()."
    ),
    "preprocessing.error.categorical": (
        "categorical names columns that are not features: {unknown}."
    ),
    "preprocessing.error.strategy": "strategy={strategy!r} is not one of {choices}.",
    "preprocessing.error.not_fitted": (
        "This HeartPreprocessor has not been fitted yet: call it on the training rows first, "
        "prep(X_train, is_train=True), then prep(X_test, is_train=False)."
    ),
    "preprocessing.code.up_and_down": (
        "{codes}: the disease rate goes up and down with the code, so no single weight on "
        "the code can follow it; one-hot encoding gives each code its own column and weight."
    ),
    "preprocessing.code.rises": (
        "{codes}: the disease rate rises with the code, so one weight could follow its "
        "direction, but only as if the codes were evenly spaced quantities. They are labels: the "
        "gaps between them mean nothing, so each code gets its own column and weight all the same."
    ),
    "preprocessing.code.falls": (
        "{codes}: the disease rate falls with the code, so one weight could follow its "
        "direction, but only as if the codes were evenly spaced quantities. They are labels: the "
        "gaps between them mean nothing, so each code gets its own column and weight all the same."
    ),
    # helpers.widgets (days 1, 2, 4-7)
    "widgets.run": "run",
    "widgets.run.tooltip": "run the experiment with these settings",
    # helpers.live (days 1 and 2): the live view's labels and summary
    "live.source.nvml": "NVIDIA GPU(s), read through NVML",
    "live.source.mps": "no NVIDIA driver: the Apple GPU's memory (MPS) and this process's CPU use",
    "live.source.cpu": "no GPU or driver found: this process's CPU use and memory instead",
    "live.bar.cpu": "CPU %",
    "live.bar.memory": "memory (GB)",
    "live.bar.busy": "{gpu} busy %",
    "live.bar.gpu_memory": "{gpu} memory (GB)",
    "live.head": "<b>Live view</b>: {source}",
    "live.reading.of": "{value:.1f} {unit} of {top:.1f}",
    "live.summary.readings": "{n} readings over {seconds:.1f} s",
    "live.summary.busy": "{gpu} busy {percent:.0f}% on average",
    "live.summary.peak": "peak {what} {gb:.2f} GB",
    "live.summary.cpu": "process CPU {percent:.0f}% on average (100% = one CPU kept busy)",
    # helpers.copies (day 2)
    "copies.allocation.gpu": (
        "PyTorch keeps freed GPU memory in its caching allocator and hands it out again, so "
        "after the first runs a new buffer on the GPU costs little; what differs is mostly the "
        "copy itself."
    ),
    "copies.library.linux": (
        "glibc, Linux's C library, hands blocks above its threshold (128 KiB, rising to at most "
        "32 MiB as large blocks are freed) straight to the kernel"
    ),
    "copies.library.other": "the C library hands large blocks straight to the operating system",
    "copies.allocation.cpu": (
        "On the CPU a large new buffer is fresh memory: {library}, and the first write to each "
        "{page_kib} KiB page stops the copy for a page fault."
    ),
    "copies.bytes": "{n:,} bytes",
    "copies.fixed": (
        "**{name}**: no copy took less than {fixed_us:.1f} µs (the {quickest:,}-byte one), an "
        "upper bound on the fixed cost; throughput peaks at {rate:.1f} GB/s (at {at}). At that "
        "rate {balance_kib:,.0f} KiB move in the fixed cost's time: copies well below that size "
        "are mostly fixed cost."
    ),
    "copies.pieces": (
        "Moving {large} as {pieces:,} copies of {small:,} would take **{ratio:.1f}×** as long as "
        "one copy ({one_ms:,.1f} ms); in copies of {best:,}, the best size here, {best_ms:,.1f} ms."
    ),
    "copies.pieces.best": (
        "Moving {large} as {pieces:,} copies of {small:,} would take **{ratio:.1f}×** as long as "
        "one copy ({one_ms:,.1f} ms), the best size here."
    ),
    "copies.above.falls": (
        "Above {at} throughput falls to {rate:.1f} GB/s at the largest size ({share:.0%} of the "
        "peak)."
    ),
    "copies.above.stays": (
        "Above {at} throughput stays within 20 % of the peak up to the largest size "
        "({rate:.1f} GB/s)."
    ),
    "copies.allocation": (
        "At {size}, a copy that allocates its buffer (*{alloc}*) took **{alloc_ms:,.2f} ms**, one "
        "into an existing buffer (*{plain}*) **{plain_ms:,.2f} ms** ({ratio:.1f}×). {note}"
    ),
    # helpers.memory (day 7)
    "memory.log.fits": "batch {batch}: fits",
    "memory.log.out": "batch {batch}: out of memory ({error})",
    "memory.autocast.ampere": "compute capability {cc}: tensor cores run bfloat16 (from 8.0 on)",
    "memory.autocast.volta": (
        "compute capability {cc}: tensor cores run float16 but not bfloat16 (that needs 8.0), and "
        "float16's narrow range needs a GradScaler"
    ),
    "memory.autocast.older": "compute capability {cc}: no tensor cores; float16 only halves memory",
    "memory.autocast.mps": "Apple GPU: float16, with a GradScaler for its narrow range",
    "memory.autocast.cpu": "CPU: bfloat16 (fast only with AVX-512 BF16 or AMX)",
    "memory.sizes": "{whole_mb:,.0f} MB against {micro_mb:,.0f} MB",
    "memory.accumulation.less": (
        "{parts} micro-batches needed {ratio:.1f}× less peak memory than the whole batch ({sizes})."
    ),
    "memory.accumulation.cuda": (
        "The micro-batches' peak was no lower ({sizes}): the weights, their gradients and "
        "the optimizer's state, not the activations, set the peak at this batch size."
    ),
    "memory.accumulation.cpu": (
        "The micro-batches' peak read no lower ({sizes}). On a CPU the figure is the process's "
        "resident memory, not its live tensors: the C allocator keeps some freed blocks for "
        "reuse and hands others back, so the figure follows the allocator's habits as much as "
        "the activations. CUDA counts live tensors, and there the smaller activations show."
    ),
    # helpers.many_models (day 7)
    "many_models.batching.many": (
        "{k} models: one batched step trained them {ratio:.1f}× as fast as the lesson loop one "
        "after another (geometric mean of {n} rounds' ratios, 95% interval {low:.1f}× to "
        "{high:.1f}×)"
    ),
    "many_models.batching.one": (
        "{k} model: one batched step trained it {ratio:.1f}× as fast as the lesson loop "
        "(geometric mean of {n} rounds' ratios, 95% interval {low:.1f}× to {high:.1f}×)"
    ),
    "many_models.batching.noise": (
        "{head}: the interval holds 1×, so no difference these rounds can tell from noise."
    ),
    "many_models.batching.pays": "{head}: batching pays.",
    "many_models.batching.slower": (
        "{head}: the batched step is slower here (its own overhead, vmap's bookkeeping, "
        "outweighs what it shares)."
    ),
    "many_models.sharing": (
        "One batched step for {many} copies took {grew:.1f}× the time of one for {few} "
        "(medians), for {work:g}× the arithmetic"
    ),
    "many_models.sharing.fixed": (
        "{head}: the step was mostly its fixed part, and the copies shared it."
    ),
    "many_models.sharing.arithmetic": (
        "{head}: the time grew with the arithmetic, so stacking shared little here."
    ),
    "many_models.sharing.between": (
        "{head}: part of the step was shared, part grew with the copies."
    ),
    # helpers.utilisation (day 7)
    "utilisation.cost": (
        "{habit} takes {times} its fix's time (median of {n} rounds' ratios); habit "
        "minus fix: {difference}: {zero}"
    ),
    "utilisation.cost.noise": "{said}; no cost shows above these rounds' noise.",
    "utilisation.cost.real": "{said}, so a real cost.",
    "utilisation.cost.faster": (
        "{said}, but the habit was the faster one: no habit saves time by costing more, so "
        "look for an ordering or cache effect in the rounds."
    ),
    "utilisation.tuning.only": "only {name} reached the target",
    "utilisation.tuning.neither": "neither reached the target",
    "utilisation.tuning.same": "{a} and {b} needed the same {epochs} epochs",
    "utilisation.tuning.fewer": "{a} needed {ea} epochs and {b} {eb}: {factor:.1f}x fewer epochs",
    "utilisation.tuning.more": "{a} needed {ea} epochs and {b} {eb}: {factor:.1f}x more epochs",
    "utilisation.tuning.slower": "{steps}; the time per epoch differed too, measurably.",
    "utilisation.tuning.as_busy": (
        "{steps}; the time per epoch did not change measurably, so each step kept the device "
        "as busy."
    ),
    "utilisation.busy.kernel": (
        "{name}: kernels were running {busy:.0%} of the time, arithmetic at {mfu:.2%} of the "
        "measured peak"
    ),
    "utilisation.busy.operator": (
        "{name}: operators were computing {busy:.0%} of the time, arithmetic at {mfu:.2%} of the "
        "measured peak"
    ),
    "utilisation.busy.above_peak": (
        "{head}: above the peak, which a step cannot be: the peak's measurement was slowed "
        "(a busy machine). Re-run both."
    ),
    "utilisation.busy.overhead": (
        "{head}: mostly overhead between the operations (Python, dispatch, launches)."
    ),
    "utilisation.busy.idle_units": (
        "{head}: busy, yet the arithmetic units mostly idle (each small operation pays its "
        "overhead)."
    ),
    "utilisation.busy.arithmetic": "{head}: busy, and much of that time is real arithmetic.",
    # helpers.takeoff (day 6)
    "takeoff.shape.falls": (
        "**{name}**: the time per step fell from {before_ms:.2f} ms at {before_rows:,.0f} rows to "
        "{after_ms:.2f} ms at {after_rows:,.0f} rows: more work cannot take less time, "
        "so something else (another program, a pause of the machine) slowed the smaller "
        "point. Run the sweep again before reading this curve."
    ),
    "takeoff.shape.flat": (
        "**{name}**: flat over every size measured: a fixed overhead of {overhead_ms:.2f} ms per "
        "step, up to {rows:,.0f} rows."
    ),
    "takeoff.shape.flat_then_rising": (
        "**{name}**: flat at first, then rising: a fixed overhead of {overhead_ms:.2f} ms per "
        "step, then work."
    ),
    "takeoff.shape.rising": (
        "**{name}**: rising from the smallest size measured ({rows:,.0f} rows): the work already "
        "outweighs the fixed overhead there."
    ),
    # helpers.roofline (days 5 and 7)
    "roofline.above.bandwidth": (
        "above the bandwidth roof ({roof}), so that roof was too low for it: this "
        "workload moved its bytes faster than the copy that measured the roof (data reused "
        "from a cache nearer the core, or a better-vectorised loop than the copy's). Read the "
        "point as at the roof, not beyond it"
    ),
    "roofline.above.flat": (
        "above the flat roof ({roof}), so the measured peak was too low for it: its "
        "arithmetic ran faster than the matrix product that measured the peak (another shape, "
        "or more threads). Read the point as at the roof, not beyond it"
    ),
    "roofline.reach": "{reach:.1%} of what the roof ({roof}) allows at that intensity",
    "roofline.head": (
        "**{name}**: {intensity:.3g} FLOPs per byte, {gflops:.3g} GFLOP/s, {where}. Of its "
        "{seconds}, arithmetic at the peak would take {arithmetic} and the memory traffic {memory}"
    ),
    "roofline.overhead": (
        "{head}: **{found}**, {rest:.1%} of the time is neither: overhead (Python, dispatch, "
        "launches, allocation, waits)."
    ),
    "roofline.compute": "{head}: **{found}**, the arithmetic takes most of the time.",
    "roofline.bandwidth": "{head}: **{found}**, moving the bytes takes most of the time.",
    "roofline.roof": "{level}: copying {size}",
    "roofline.roof.thread": "{level}: copying {size}, {threads} thread",
    "roofline.roof.threads": "{level}: copying {size}, {threads} threads",
    "roofline.plot.roof": "roof ({roof})",
    "roofline.plot.point": "{name} ({found})",
    "roofline.plot.x": "arithmetic intensity (FLOPs per byte moved, log scale)",
    "roofline.plot.y": "achieved FLOP/s (log scale)",
    "roofline.plot.title": "Roofline: peak {peak:.3g} GFLOP/s, bandwidth {bandwidths} GB/s",
    # helpers.crossover (day 6)
    "crossover.span": "the lesson's {low:,.0f}-{high:,.0f}",
    "crossover.span.rows": "the lesson's {low:,.0f}-{high:,.0f} rows",
    "crossover.never": (
        "Against {against}, the GPU is not faster anywhere up to {largest:,.0f} rows "
        "measured: these curves cannot confirm {span}."
    ),
    "crossover.pays_off": "Against {against}, the GPU pays off from about {rows:,.0f} rows",
    "crossover.already": (
        "Against {against}, the GPU is faster already at the smallest size measured "
        "({rows:,.0f} rows)"
    ),
    "crossover.far_below": "{where}: far below {span}.",
    "crossover.below": "{where}: below {span}, within a factor of ten.",
    "crossover.within": "{where}: within {span}.",
    "crossover.above": "{where}: above {span}.",
    "crossover.bound.none": (
        "The lesson's GPU was measured at one size only: {rows} rows, {step_ms:.2f} ms per epoch "
        "(a whole loop, divided by its epochs). A GPU step does not get faster with more rows, so "
        "the GPU cannot pay off below {largest:,.0f} rows: your CPU's step stays faster than "
        "that at every size measured."
    ),
    "crossover.bound": (
        "The lesson's GPU was measured at one size only: {rows} rows, {step_ms:.2f} ms per epoch "
        "(a whole loop, divided by its epochs). A GPU step does not get faster with more rows, so "
        "the GPU cannot pay off below about {bound:,.0f} rows, where your CPU's step reaches "
        "that time."
    ),
    "crossover.bound.rules_out": (
        "{head} That alone rules out {span}: the lesson's estimate is too low here."
    ),
    "crossover.bound.none.below": (
        "{head} That bound is below {span}: it neither confirms nor rules it out."
    ),
    "crossover.bound.within": (
        "{head} That bound is within {span}, so it does not rule the range out. Only if the "
        "GPU's step stayed at its {rows}-row time up to {bound:,.0f} rows (likely for so small a "
        "network, but not measured) would it pay off right there; a GPU curve (this machine's, or "
        "a reference measured on a GPU) turns the bound into a measurement."
    ),
    "crossover.bound.below": (
        "{head} That bound is below {span}, so it does not rule the range out. Only if the "
        "GPU's step stayed at its {rows}-row time up to {bound:,.0f} rows (likely for so small a "
        "network, but not measured) would it pay off right there; a GPU curve (this machine's, or "
        "a reference measured on a GPU) turns the bound into a measurement."
    ),
    # helpers.topology and helpers.gpu (day 1)
    "topology.smt.unknown": (
        "How many hardware threads each core runs could not be read on this machine."
    ),
    "topology.smt.part": "{cores} run {threads}",
    "topology.smt.and": " and ",
    "topology.smt.hybrid": (
        "The cores differ: of {cores} cores, {parts} hardware thread(s) each (a hybrid CPU, such "
        "as Intel's performance and efficiency cores), so logical CPUs divided by cores is not "
        "the threads of any one core."
    ),
    "topology.smt.one": (
        "Each core runs one hardware thread here, so logical CPUs and cores are the same."
    ),
    "topology.smt.many": (
        "Each core runs {threads} hardware threads (simultaneous multithreading, "
        "'hyper-threading'), so {threads} logical CPUs share one core's arithmetic units."
    ),
    "gpu.tier.data_centre": "the name contains {line!r}, a data-centre product line",
    "gpu.tier.workstation": "the name contains {line!r}, a workstation line",
    "gpu.tier.consumer": "the name contains {line!r}, a consumer (gaming) line",
    "gpu.tier.large": "unknown name; {memory_gb:.0f} GB of memory is data-centre sized",
    "gpu.tier.small": "unknown name; {memory_gb:.0f} GB of memory is consumer sized (a guess)",
    # helpers.training (days 0, 2, 4, 5, 7): the progress bar
    "training.bar": "training",
    # helpers.training: day 0's findings
    "training.same_losses": "The loop above and `train` recorded the same losses.",
    "training.different_losses": "The loop above and `train` recorded DIFFERENT losses.",
    "training.trained": (
        "Trained **{epochs} epochs** on **{device}** in **{seconds:.2f} s** ({per_epoch_us:.0f} µs "
        "per epoch)."
    ),
    "training.loss": (
        "The loss went from **{first:.3f}** to **{final:.3f}**; accuracy on the {tested} test "
        "flowers is **{accuracy:.0%}** (guessing gives 33%)."
    ),
    "preprocessing.base.disease": (
        "**{rate:.0%}** of patients have heart disease, so always guessing 'disease' is right "
        "{right:.0%} of the time: every model below must beat that."
    ),
    "preprocessing.base.none": (
        "**{rate:.0%}** of patients have heart disease, so always guessing 'no disease' is right "
        "{right:.0%} of the time: every model below must beat that."
    ),
    # day 4's other findings, cell by cell (notebooks/day04_heart_preprocessor.ipynb)
    "day04.panel.one_hot": "one-hot",
    "day04.panel.scale": "scale",
    "day04.panel.fill": "fill",
    "day04.panel.title": "Preprocessing choices against the cross-validated score",
    "day04.reordered": "columns in another order give the same result: {same} | ignored: {ignored}",
    "day04.pickled": "pickled pipeline predicts the same: {same}",
    "day04.output_columns": "output columns: {columns}",
    "day04.same_transform": "fit then transform == called with is_train: {same}",
    "day04.before_fitting": "Before fitting: {error}",
    "day04.missing_in": "{n} in `{column}`",
    "day04.patients": "**{n} patients**, **{missing} missing values** ({where}).",
    "day04.split": "train: {train} patients, test: {test}",
    "day04.bug1": (
        "**Bug 1:** the call returns a `{kind}` of shape {shape}, not the DataFrame its "
        "annotation promises: the column names are gone, so `out['age']` fails and nothing says "
        "which of the {columns} columns is which."
    ),
    "day04.bug2": (
        "**Bug 2:** the forgotten flag silently refitted on the test rows: {changed} of 13 medians "
        "and {moved} of 13 means changed, and the test rows now average {largest:.1e} at most in "
        "every column, as if they were training data. Nothing warned: the test score is now "
        "computed on rows scaled with their own statistics."
    ),
    "day04.ca": (
        "`ca`, the number of major vessels seen (0-3), is a real count: its rate {trend} with the "
        "count, and it stays numeric."
    ),
    "day04.auc": (
        "ROC AUC over {folds} folds: codes scaled as numbers **{codes:.3f}**, one-hot "
        "**{onehot:.3f}**."
    ),
    "day04.choice": (
        "fill={strategy!r}, scale={scale}, one-hot={one_hot}: ROC AUC **{auc:.4f}**, the default "
        "{default:.4f}, on the same {folds} folds."
    ),
    "day04.leak": "ROC AUC, leaky **{leaky:.4f}**, honest **{honest:.4f}**.",
    "day04.gap": (
        "On {tested} test patients one patient is **{one:.1%}** of accuracy, so the accuracy gap "
        "of {gap:+.1f} percentage points between the two is {patients:.0f} patient(s). {verdict}"
    ),
    # day 3's findings, cell by cell (notebooks/day03_call_and_modules.ipynb)
    "day03.own_call": "nn.Linear defines its own __call__? {defines}",
    "day03.mro": "its classes, most specific first: {classes}",
    "day03.parameter_shapes": "parameter shapes: {shapes}",
    "day03.registered": "registered sub-modules: {modules}",
    "day03.running_means": "tick was called {calls} times; running means: {means}",
    "day03.same": "same outputs: {outputs}; same gradients: {grads}",
    "day03.through_call": "through __call__: {calls} pre-hook calls, output shapes {shapes}",
    "day03.after_forward": (
        "after tiny.forward(x): {calls} (the layers' hooks ran: forward calls self.fc1(x))"
    ),
    "day03.skipped": "tiny.fc1.forward(x) ran without its hooks: {skipped}",
    "day03.removed": "after handle.remove(): no hook ran",
    "day03.not_removed": "after handle.remove(): hooks still ran",
    "day03.call_impl": (
        "So `model.fc1(x)` runs **{runs}**: `nn.Module.__call__` is that function under another "
        "name. It calls `torch.compile`'s version of the module when the module was compiled, "
        "otherwise `Module._call_impl`, which runs the hooks and `forward`, as our `__call__` does."
    ),
    "day03.optimiser_holds": (
        "The optimiser holds a weight on **{held}**; the model's is on **{target}**."
    ),
    "day03.hooks_fired": "One call through `model(x)` fired **{hooks}** hooks (one per layer).",
    "day03.records": (
        "After `model.forward(x)` there were **{records}** records: the layers inside still ran "
        "through their own `__call__`, because `forward` calls `self.fc1(x)`."
    ),
    "day03.outer_hook": "a hook on the model itself fired {fired} time(s) for 2 forward passes",
    "gpu.memory": (
        "{name}: {n:,} bytes, {gb:.1f} GB (10^9 bytes, the unit of the tables here) or {gib:.1f} "
        "GiB (2^30 bytes)."
    ),
    "gpu.found.mps": "**Apple GPU (MPS)** found:",
    "gpu.found.none": "**No GPU here** (no CUDA, ROCm or MPS device): the course runs on the CPU.",
    "gpu.found.none.table": (
        "The table below shows what the same reading says about some well-known cards."
    ),
    # day 1's findings, cell by cell (notebooks/day01_hardware.ipynb)
    "day01.panel.title": "Watch a workload of your choice",
    "day01.panel.size": "matrix size",
    "day01.panel.seconds": "seconds",
    "day01.cpu": (
        "The CPU: **{name}** ({microarchitecture}, {architecture}), with **{cores} physical "
        "cores** and **{logical_cpus} logical CPUs**."
    ),
    "day01.usable": (
        "This process may use **{usable}** of them (CPU affinity and container limits count; "
        "`os.cpu_count()` does not know about either). Memory: {available} GB available of "
        "{total} GB."
    ),
    "day01.none_found": "none found",
    "day01.vector": (
        "Vector extensions: **{extensions}**. PyTorch's CPU capability here: **{capability}**."
    ),
    "day01.card_80": "A card with 80 GiB",
    "day01.units": (
        "Memory comes in two units. {note} A product name such as '80 GB' counts binary units "
        "(GiB), and part of the memory may be reserved (ECC), so the total PyTorch reports can "
        "differ from the name either way."
    ),
    "day01.no_smi": "nvidia-smi is not installed here: this machine has no NVIDIA driver.",
    "day01.live": "**What the live view saw:** {summary}.",
    "day01.products": (
        "{products} products of {size}×{size} matrices in {seconds:.2f} s, measured after waiting "
        "for the device: **{rate:.1f} GFLOP/s**."
    ),
    "day01.summary": "{summary}.",
    "copies.streams.overlap": (
        "Product then copy, one stream: **{one_ms:.2f} ms**; copy on a second stream: "
        "**{two_ms:.2f} ms** ({ratio:.2f}x): here the copy overlapped."
    ),
    "copies.streams.serial": (
        "Product then copy, one stream: **{one_ms:.2f} ms**; copy on a second stream: "
        "**{two_ms:.2f} ms** ({ratio:.2f}x): here the copy did not overlap measurably."
    ),
    "copies.streams.none": (
        "No CUDA GPU here ({device}): there are no streams to overlap, so this cannot be shown "
        "on this machine; on an NVIDIA GPU this cell compares one stream with two."
    ),
    # day 2's findings, cell by cell (notebooks/day02_devices.ipynb)
    "day02.panel.size": "size: 2^n bytes",
    "day02.panel.title": "Time a copy of your chosen size",
    "day02.devices": "Devices here: **{devices}**. The course uses **{device}**.",
    "day02.still": "After `x.to(target)` without assignment, `x` is still on **{device}**.",
    "day02.moved": "After `x = x.to(target)`, `x` is on **{device}**.",
    "day02.itself": (
        "Why the bug hides on a laptop: when a tensor is already where it is asked to go, `.to()` "
        "returns the tensor itself (`same.to('cpu') is same` is **{itself}**)."
    ),
    "day02.nothing_fails": (
        "So on a CPU-only machine the forgotten assignment changes nothing and nothing fails."
    ),
    "day02.mismatch": (
        "The model is on **{model}**, the data on **{data}**. PyTorch says:\n\n> {message}"
    ),
    "day02.fixed": "Fixed: the output has shape {shape} on **{device}**.",
    "day02.ask": (
        "To find a model's device, ask a parameter: `next(model.parameters()).device` -> {device}."
    ),
    "day02.batches": "{batches} batches, the last of {rows} rows, moved to {device}",
    "day02.pieces": "{n:,} of {size:,} bytes",
    "day02.pool": "Each timed run copies from a {mib} MiB pool, in pieces: {runs}.",
    "day02.again": "{variant}: {size:,} bytes in {us:,.1f} µs per copy",
    "day02.readback": "copy complete and correct: {ok}",
    "day02.saved_on": "The file says its tensors were saved on **{where}**.",
    "day02.loaded": (
        "With `map_location='cpu'` they load on **{cpu}**; with `map_location=device` on "
        "**{device}**."
    ),
    "day02.trained": (
        "**{epochs} epochs on {device}** in {seconds:.2f} s; loss {first:.3f} -> {final:.3f}; "
        "test accuracy **{accuracy:.0%}**."
    ),
    "day02.live": "Live view: {summary}.",
    "takeoff.side.here": "this machine's GPU ({device})",
    "takeoff.side.reference": "{gpu}",
    "takeoff.side.lesson": "the lesson's one GPU run",
    # day 6's findings, cell by cell (notebooks/day06_gpu_takeoff.ipynb)
    "day06.curve": "{model} on {device}",
    "day06.measured_on": "Measured on: **{card}** (all usable threads, PyTorch's default).",
    "day06.panel.title": "Time one step of your choosing",
    "day06.panel.model": "model",
    "day06.panel.log10_rows": "log10 rows",
    "day06.column.pays_off": "the GPU pays off from (against {against})",
    "day06.column.bound": "the lesson's GPU cannot pay off below (a bound from its one point)",
    "day06.never_covered": "never, in the rows both curves cover",
    "day06.rows": "{rows:,.0f} rows",
    "day06.point": "{model}, {rows:,} rows on {device}: {ms:,.2f} ms per step",
    "day06.not_reached": "not reached in the sizes measured",
    "day06.intensity": (
        "The tiny network does {tiny:.1f} FLOPs per byte at its largest size, the wide one "
        "{wide:.1f}: the wide network gives each byte far more work."
    ),
    "day06.reaches": (
        "So the wide one reaches {wide:.2f} GFLOP/s where the tiny one reaches {tiny:.2f}. Same "
        "device; the difference is how much arithmetic there is per byte and per launched "
        "operation."
    ),
    "day06.batch": (
        "**{name}**: batch {small} takes {slower:.1f}× as long per epoch as batch {large:,}."
    ),
    "day06.side": "The GPU side of the comparison: **{against}**.",
    "day06.loading": (
        "Loading: **{per_core:,.0f} pictures per second** per core here, {cores} cores: "
        "{rate:,.0f} per second."
    ),
    "day06.imagenet": (
        "One batch of 256 images is already {flops:.2e} FLOPs, far past any take-off point: the "
        "hours per device for 90 epochs, and what bounds them:"
    ),
    "utilisation.workers.none": (
        "No worker count beat loading in the main process here (`num_workers=0`)."
    ),
    "utilisation.workers.best": (
        "Best plain worker count: **{best}**, {speed:.2f}× as fast as `num_workers=0`."
    ),
    "utilisation.workers.not_tried": "no worker count above that was tried",
    "utilisation.workers.helped": (
        "{most} workers, more than the CPUs, still helped ({beyond:.2f}× as fast as {at_cpus})"
    ),
    "utilisation.workers.nothing": (
        "{most} workers, more than the CPUs, added nothing ({beyond:.2f}× as fast as {at_cpus})"
    ),
    "utilisation.workers.in_the_way": (
        "{most} workers, more than the CPUs, got in the way ({beyond:.2f}× as fast as {at_cpus})"
    ),
    "utilisation.workers.cpus": (
        "This process may use **{cpus} CPUs**, shared by the workers and the training step; {why}. "
        "Keeping 2 workers alive between epochs (`persistent_workers`) made the second epoch "
        "{kept:.2f}× as fast as restarting them (one run of each setting: read small ratios as "
        "noise)."
    ),
    # day 7's findings, cell by cell (notebooks/day07_gpu_utilization.ipynb)
    "day07.recognised": "recognised as out of memory: {oom}",
    "day07.where.pretend": (
        "a pretend {mb:.0f} MB device (no GPU here; the error class is PyTorch's real one)"
    ),
    "day07.where.gpu": "this GPU ({gb:.0f} GB)",
    "day07.measured_on": "Measured on: **{card}**.",
    "day07.epoch": (
        "One epoch, {steps} steps, `num_workers=0`: **{waiting:.2f} s waiting** for data, "
        "**{computing:.2f} s in steps**: step share **{busy:.0%}**."
    ),
    "day07.items": (
        "Each item is a {size}×{size} JPEG, decoded and shrunk on the CPU: this machine reads "
        "**{rate:,.0f} items per second** on one core, and the loop waits for all 64 of a batch "
        "before every step."
    ),
    "day07.peak": "Peak of this device: **{peak:,.1f} GFLOP/s** ({threads} thread(s)).",
    "day07.operator_share": (
        "On this CPU the 'busy share' is the time inside computing operators; a GPU's profile "
        "counts kernel time instead, the figure `nvidia-smi` estimates."
    ),
    "day07.panel.title": "One epoch with your loader settings",
    "day07.panel.pixels": "JPEG pixels",
    "day07.one_epoch": (
        "{workers} worker(s), {size}×{size} JPEGs: {waiting:.2f} s waiting, {computing:.2f} s "
        "computing, busy **{busy:.0%}**."
    ),
    "day07.relu": (
        "`x.relu()` needed **{new:,.0f} MB** more at its peak; `x.relu_()` **{in_place:,.0f} MB**."
    ),
    "day07.autocast.scaler": "On **{device}**: autocast in **{dtype}**, GradScaler on ({why}).",
    "day07.autocast.no_scaler": "On **{device}**: autocast in **{dtype}**, GradScaler off ({why}).",
    "day07.precision": (
        "Batch {batch:,} on {device}: float32 **{float32_ms:.1f} ms** per step, {label} "
        "**{mixed_ms:.1f} ms** (medians): autocast is **{ratio:.2f}×** as fast here (median of "
        "the rounds' ratios)."
    ),
    "day07.capability": "CPU capability: {capability}.",
    "day07.accumulation": (
        "Batch {big:,} in one piece: peak **{whole:,.0f} MB**; as {parts} micro-batches of "
        "{micro_rows:,}: **{micro:,.0f} MB**."
    ),
    "day07.same_gradients": "Same gradients: **{same}**.",
    "day07.starting": "On {where}, starting from batch {start:,}:",
    "day07.goes_on": (
        "Training can go on with batch **{batch:,}** (or keep the big batch with gradient "
        "accumulation)."
    ),
    "day07.tuning": "Seconds per {epochs} epochs: {verdict}",
    "day07.halving": (
        "Halving the width cut the weights to {share:.0%} and made a step **{speed:.1f}×** as "
        "fast at batch {batch:,} (median of the rounds' ratios)."
    ),
    # the lessons' own plots (days 0-2, 4, 6): axes, titles and legends
    "plot.epoch": "epoch",
    "plot.training_loss": "training loss (cross-entropy)",
    "plot.model_on": "{model} on {device}",
    "plot.since_start": "time since the start (s)",
    "plot.memory_gb": "memory (GB)",
    "plot.memory_title": "Memory while the workload ran",
    "plot.bytes_copied": "bytes copied",
    "plot.time_per_copy": "time per copy (µs)",
    "plot.copy_title": "Time per copy (median, bars: interquartile range)",
    "plot.throughput": "throughput (GB/s)",
    "plot.throughput_title": "Throughput",
    "plot.measured_here": "{name}, {on} (measured here)",
    "plot.reference": "{name}, {gpu}",
    "plot.rows_full_batch": "rows per step (full batch)",
    "plot.step_ms": "time per training step (ms)",
    "plot.step_title": "Time per training step against rows",
    "plot.your_point": "your point",
    "plot.rows_per_step": "rows per step",
    "plot.time_per_step": "time per step (ms)",
    "plot.batch_size": "batch size (rows per step)",
    "plot.epoch_seconds": "time per epoch (s)",
    "plot.epoch_title": "One epoch over {rows:,} rows on {device}",
    # day 5: loops, claims, compiled and the day's conclusions
    # helpers.claims: the lesson's explanation judged part by part (days 5 and 6)
    "claims.claim.floor": (
        "A floor (底噪) every epoch pays whether or not it records: the Python `for` loop "
        "itself plus launching kernels (启动开销)"
    ),
    "claims.claim.sync": (
        "`.item()` is a synchronisation (同步) that makes the CPU wait for the GPU, with a "
        "threshold effect (阈值效应): below some recording frequency the waits stop mattering"
    ),
    "claims.claim.issue": (
        "Submission is asynchronous (异步): once recordings are rare, how fast the CPU "
        "issues commands, not the number of syncs, limits the speed"
    ),
    "claims.claim.compute": (
        "'About 3 s of necessary compute' (必须的计算时长), subtracted to leave the "
        "remaining time (剩余时长)"
    ),
    "claims.column.claim": "claim",
    "claims.column.verdict": "your data",
    "claims.column.evidence": "evidence",
    "claims.verdict.supported": "supported",
    "claims.verdict.partly supported": "partly supported",
    "claims.verdict.not supported": "not supported",
    "claims.verdict.supported (second half only)": "supported (second half only)",
    "claims.verdict.not testable": "not testable on a {device}",
    "claims.verdict.loose: could be time inside operators": "loose: could be time inside operators",
    "claims.verdict.loose: more than time inside operators": (
        "loose: more than time inside operators"
    ),
    "claims.line": "- **{verdict}** ({part}): {evidence}",
    "claims.single.noise": (
        "{n} single runs cannot price a recording: no line, straight or not, can be seen in them."
    ),
    "claims.single.drift": (
        "these {n} runs drifted: a slope that more recordings cannot cause, so no price either."
    ),
    "claims.single.priced": (
        "these {n} runs do price a recording, though one run each is a thin basis."
    ),
    "claims.launches.cuda": "{computing:.0f} of them compute, each a kernel launch",
    "claims.launches.mps": "{computing:.0f} of them compute, each a GPU kernel",
    "claims.launches.cpu": (
        "{computing:.0f} of them compute; a CPU launches no kernels, so dispatch, autograd and "
        "the optimiser's Python stand in for the launches"
    ),
    "claims.floor.head": (
        "The floor is real: {value} per epoch (95% interval {low} to {high}), paid whatever is "
        "recorded; {outside:.0%} of an epoch lies outside the operators' own time"
    ),
    "claims.floor.loop": (
        "The `for` statement with its `%` test takes {ns:.0f} ns of it ({percent:.2g}%): the loop "
        "that carries a floor is the Python each epoch runs, not the loop statement"
    ),
    "claims.floor.overhead": (
        "{head}: overhead, the cost of issuing the {operators:.0f} operators each epoch "
        "dispatches ({launches}). {loop}."
    ),
    "claims.floor.work": (
        "{head}: most of the floor is the operators' work itself, not the loop or the launches. "
        "{loop}."
    ),
    "claims.sync.priced": "one recording costs {price}",
    "claims.sync.sharp": "these runs would have detected {smallest} or more",
    "claims.sync.no_queue": (
        "On a {device} nothing is queued, so `.item()` has nothing to wait for: it reads a number "
        "already in memory. What these runs saw ({priced}; {zero}; bend {bend}) is the work of "
        "recording, or noise, not a wait; run this notebook on a GPU to test the claim."
    ),
    "claims.sync.hidden": (
        "On this {device} device the waits do not show: {priced}: {zero}; {sharp}, so if they "
        "cost, they cost less."
    ),
    "claims.sync.drift": (
        "Recording more made runs faster ({priced}): a drift of the machine, not a cost. "
        "Re-run with more rounds."
    ),
    "claims.sync.threshold": (
        "The waits are real: {priced}, and the time bends upwards (bend {bend}): frequent "
        "recordings cost more each, rare ones next to nothing: a threshold effect."
    ),
    "claims.sync.no_threshold": (
        "The waits are real: {priced}. But the time does not bend upwards (bend {bend}): each "
        "recording costs the same however often it comes, so the waits matter in proportion to "
        "their number: no threshold."
    ),
    "claims.issue.facts": (
        "with rare recordings an epoch takes {epoch}, {overhead:.0%} of it outside the "
        "operators (overhead) and {sync_share:.1%} of a run in the recordings' waits; issuing "
        "fewer operations per epoch made training at least {speedup_low:.2f}× as fast in "
        "three rounds out of four"
    ),
    "claims.issue.failed.inside": (
        "most of an epoch is spent inside operators: the work, not issuing it"
    ),
    "claims.issue.failed.waits": "the waits still take most of the time",
    "claims.issue.failed.speed": "issuing less did not make it reliably faster",
    "claims.issue.not_supported": "{facts}; but {reasons}.",
    "claims.issue.second_half": (
        "On a CPU nothing is queued (the CPU runs each operator itself), so only the second "
        "half can be tested, and it holds: {facts}."
    ),
    "claims.issue.supported": "{facts}.",
    "claims.compute.head": (
        "{seconds:g} s over {epochs} epochs is {per_epoch} per epoch. As arithmetic "
        "({flops:,.0f} FLOPs per epoch) that is {gflops:.3g} GFLOP/s, {below:,.0f}× below this "
        "machine's own peak: it is not arithmetic time. Here the operators' own time over "
        "{epochs} epochs is {inside_total:.2g} s ({inside} per epoch)"
    ),
    "claims.compute.inside": (
        "{head}: the {seconds:g} s are within twice that, so they could be time inside "
        "operators (on a GPU, kernels that take microseconds however little they compute); "
        "the lesson never said, so its remaining time is not well defined either."
    ),
    "claims.compute.overhead": (
        "{head}: the {seconds:g} s are more than twice that, so they must hold overhead as well; "
        "the lesson never said, so its remaining time is not well defined either."
    ),
    # helpers.compiled (day 5)
    "compiled.note.unavailable": "not available here ({error}: {why})",
    "compiled.space": (
        "`torch.compile` cannot build C++ under a folder whose path has a space ({folder}): "
        "PyTorch passes that path to the compiler unquoted (pytorch/pytorch#191010). The fix: "
        "PyTorch, Python and the compile cache (`TORCHINDUCTOR_CACHE_DIR`) at paths without "
        "spaces (`make` and the course's own runs put them there by themselves when the course "
        "folder's path has one)"
    ),
    "compiled.note.declined": "Inductor declined CUDA graphs (its warning says why): left out",
    "compiled.note.first_calls": "first calls {seconds:.1f} s in this process",
    "compiled.note.needs_gpu": "needs an NVIDIA GPU: not measured here",
    "compiled.not_measured": "not measured",
    "compiled.never": "never",
    "compiled.advice.cold.missing": "with a cold cache: not measured in this run",
    "compiled.advice.warm.missing": "with a warm cache: not measured in this run",
    "compiled.advice.cold": (
        "with a cold cache, **{short}** for {epochs:,} epochs ({short_s:.1f} s in all) and "
        "**{long}** for {long_epochs:,} ({long_s:,.0f} s)"
    ),
    "compiled.advice.warm": (
        "with a warm cache, **{short}** for {epochs:,} epochs ({short_s:.1f} s in all) and "
        "**{long}** for {long_epochs:,} ({long_s:,.0f} s)"
    ),
    "compiled.advice": "Fastest end to end, compile included: {lines}.",
    # helpers.profiling (day 5): the timeline's rows and axis
    "profiling.row.phase": "phases",
    "profiling.row.operator": "operators",
    "profiling.row.kernel": "kernels",
    "profiling.x": "time (µs from the first event)",
    # helpers.recording: day 5's findings, cell by cell
    "recording.measured_on": "Measured on: **{card}**. PyTorch uses 1 thread here, on purpose.",
    "recording.one_thread": "one thread",
    "recording.arithmetic": (
        "One epoch is **{flops:,} FLOPs**; this device's peak is **{peak:,.1f} GFLOP/s** "
        "({where}), so the arithmetic needs **{arithmetic_us:.2f} µs** of an epoch that takes "
        "**{epoch_us:,.0f} µs**. Time inside operators is **{inside_us:,.0f} µs** "
        "({inside_share:.0%} of the epoch), {ratio:,.0f}× the arithmetic: an operator on tiny "
        "tensors costs far more than the sums it does."
    ),
    "recording.runs.same": "{epochs} epochs per run (the student's).",
    "recording.runs.other": "{epochs} epochs per run (not the student's {student}).",
    "recording.fits": (
        "- **The student's four runs:** {student} Their run-to-run scatter is {student_sd:.2f} s: "
        "{student_says}\n- **Your four runs:** {yours} Your scatter is {your_sd:.2f} s: "
        "{your_says}"
    ),
    "recording.round": "round {i}: {names}",
    "recording.rounds": (
        "{epochs} epochs per run, each round in its own shuffled order ({rounds})."
    ),
    "recording.noise": (
        "- Recording every epoch against never (seconds per run): {extremes}\n- The lesson's "
        "comparison, every 100 against every 2000: {lesson}\n- Run-to-run noise: the "
        "interquartile range is typically **{noise:.1%}** of a run's time."
    ),
    "recording.price.below": (
        "**The price:** {price}\n\n**The shape:** {shape}\n\nOne `.item()` alone, timed by "
        "`torch.utils.benchmark`, takes {item_us:.2f} µs (middle half of the blocks {low_us:.2f} "
        "to {high_us:.2f} µs).\n\nAt {epochs} epochs, `a` would be about **{a_run:.1f} s**, "
        "{a_us:.0f} µs per epoch that no logging frequency can remove. Section 2 timed such runs "
        "at **{fastest:.2f} to {slowest:.2f} s** ({fastest_us:.0f} to {slowest_us:.0f} µs per "
        "epoch), so `a` is {off:.0%} below their median: a machine's speed drifts between "
        "measurements minutes apart, so compare only what one interleaved run measured "
        "(section 9 lists every epoch time this lesson measured)."
    ),
    "recording.price.above": (
        "**The price:** {price}\n\n**The shape:** {shape}\n\nOne `.item()` alone, timed by "
        "`torch.utils.benchmark`, takes {item_us:.2f} µs (middle half of the blocks {low_us:.2f} "
        "to {high_us:.2f} µs).\n\nAt {epochs} epochs, `a` would be about **{a_run:.1f} s**, "
        "{a_us:.0f} µs per epoch that no logging frequency can remove. Section 2 timed such runs "
        "at **{fastest:.2f} to {slowest:.2f} s** ({fastest_us:.0f} to {slowest_us:.0f} µs per "
        "epoch), so `a` is {off:.0%} above their median: a machine's speed drifts between "
        "measurements minutes apart, so compare only what one interleaved run measured "
        "(section 9 lists every epoch time this lesson measured)."
    ),
    "recording.floor": (
        "The bare loop takes **{bare_ns:.0f} ns** per epoch; the floor, `a` per epoch, is "
        "**{floor_us:.0f} µs**. Each epoch dispatches **{operators:.0f} operators** "
        "({computing:.0f} of them do arithmetic; on a GPU each of these is a kernel launch)."
    ),
    "recording.profiler": (
        "Under the profiler these phases take **{phases_us:,.0f} µs** per epoch (their own time, "
        "not the gaps between them), {slowdown:.1f}× the {epoch_us:,.0f} µs a whole epoch takes "
        "without it: the shares are the guide here, not the absolute times."
    ),
    "recording.timeline": (
        "These {shown} traced epochs took **{traced_us:,.0f} µs** each from first event to last, "
        "{ratio:.1f}× an epoch without the profiler (the phase table above: {slowdown:.1f}×, "
        "counting only the phases' own time). Operators that compute fill **{operators:.0%}** of "
        "this timeline; the white between them is overhead. The whole trace is in `{trace}`: "
        "open it in [Perfetto](https://ui.perfetto.dev) (*Open trace file*) to zoom into every "
        "operator, with its call stack and its thread."
    ),
    "recording.timeline.kernels": (
        "These {shown} traced epochs took **{traced_us:,.0f} µs** each from first event to last, "
        "{ratio:.1f}× an epoch without the profiler (the phase table above: {slowdown:.1f}×, "
        "counting only the phases' own time). Operators that compute fill **{operators:.0%}** of "
        "this timeline; the white between them is overhead. The GPU's kernels fill "
        "**{kernels:.0%}** of it. The whole trace is in `{trace}`: open it in "
        "[Perfetto](https://ui.perfetto.dev) (*Open trace file*) to zoom into every operator, "
        "with its call stack and its thread."
    ),
    "recording.bandwidth": "**{gbs:,.1f} GB/s** ({label})",
    "recording.roofline": (
        "Peak **{peak:,.1f} GFLOP/s** (a large matrix product, {threads}); bandwidth "
        "{bandwidths}.\n\n{workloads}\n\n{fused}"
    ),
    "recording.roofline.fused": (
        "Fusing the chain made it **{speedup:.1f}×** as fast as eager: the same arithmetic, "
        "{fewer}× fewer bytes moved."
    ),
    "recording.roofline.unfused": "The compiled chain is not measured here: {why}.",
    "recording.same_losses": (
        "All variants compute the same losses (within 1e-4 relative). {notes}."
    ),
    "recording.fastest": (
        "\n\n- The fastest variant per epoch is **{best}**, **{speedup:.1f}×** as fast as the "
        "lesson loop recording every 100 epochs (median over {repeats} rounds of {epochs} "
        "epochs).\n- It still takes **{best_us:.1f} µs** per epoch, **{ratio:,.0f}×** the "
        "arithmetic time ({arithmetic_us:.2f} µs): what is left is the generated code's own work "
        "on tiny tensors, and what remains of the overhead."
    ),
    "recording.compile.fast": (
        "{advice} (Fast mode measures no cold compile, and takes the warm one from this "
        "process's first calls: fresh processes take tens of seconds.)"
    ),
    "recording.epoch_times": (
        "One epoch of the lesson's loop, as each section measured it: from {low:,.0f} to "
        "{high:,.0f} µs, {ratio:.2f}× apart. The sections ran minutes apart, with other run "
        "lengths and recordings: compare numbers within one interleaved comparison, never across "
        "sections."
    ),
    "recording.live": (
        "{label}, {epochs} epochs on {on}: {seconds:.3f} s ({epoch_us:.0f} µs/epoch)"
    ),
    "recording.can": "can",
    "recording.cannot": "cannot",
    "recording.stands": "stands",
    "recording.bends": "bends",
    "recording.summary.part": "{part} *{verdict}*",
    "recording.summary": (
        "**What this run found on {device}.** The student's table {student} price a recording; "
        "your sweep {yours} ({price}), and the straight line {line}. The lesson's epoch is "
        "**{regime}**: arithmetic {arithmetic:.2%} of it, time inside operators {inside:.0%}, "
        "the bare `for` loop {loop:.2g}% of the floor. The fastest fix per epoch, {best}, ran "
        "**{speedup:.1f}×** as fast as the lesson loop recording every 100 epochs. {advice} "
        "Verdicts, part by part: {verdicts}."
    ),
    # day 5's own plots
    "day05.panel.epochs": "epochs",
    "day05.panel.device": "device",
    "day05.panel.every": "record",
    "day05.panel.title": "Run one condition live",
    "day05.quartiles": "{low:.2f} to {high:.2f}",
    "day05.column.median_s": "median (s)",
    "day05.column.q1_s": "first quartile (s)",
    "day05.column.q3_s": "third quartile (s)",
    "day05.column.spread_s": "spread: interquartile range (s)",
    "day05.plot.recordings": "recordings per run",
    "day05.plot.remaining": "remaining time (s)",
    "day05.plot.fits_title": "Remaining time against recordings, with the fitted lines",
    "day05.plot.student": "student (GPU)",
    "day05.plot.you": "you ({device})",
    "day05.plot.median": "median, bars: interquartile range",
    "day05.plot.recordings_never": "recordings per run (log scale; 0 = never)",
    "day05.plot.run_time": "run time (s)",
    "day05.plot.sweep_title": "{epochs} epochs on {device}",
    "day05.plot.runs_minus_line": "runs minus the straight line",
    "day05.plot.parabola": "the parabola minus the line",
    "day05.plot.recordings_log": "recordings per run (log scale)",
    "day05.plot.residual": "residual (ms)",
    "day05.plot.residuals": "Residuals",
    "day05.plot.medians": "section 3 medians ({device})",
    "day05.plot.your_runs": "your runs (scaled to the same epochs)",
    "day05.plot.seconds_per": "seconds per {epochs} epochs",
    "day05.plot.timeline": "{epochs} epochs of the lesson's loop on {device}",
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
    "receipts.day05.item": "one .item(), alone",
    "receipts.day05.recording": "one recording inside the loop (its price b)",
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
    "receipts.day05.no_quartile": (
        "This receipt keeps each variant's median speed-up but not the lower quartile of its "
        "rounds, so the third part is not judged on it (`python -m helpers receipt` keeps both)."
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
    # helpers.scaling and helpers.links: day 8's findings
    "scaling.communication.bound": (
        "**communication-bound**: more processes make each step slower, not faster"
    ),
    "scaling.communication.large": (
        "communication is a large part: fewer, larger all-reduces (bigger batches) pay off"
    ),
    "scaling.communication.compute": (
        "**compute-bound**: the all-reduce costs little next to the arithmetic"
    ),
    "scaling.overlap.none": (
        "The step waited longer than one all-reduce of all the gradients takes alone "
        "({allreduce_ms:.2f} ms): overlapping hid nothing, and the other {other_ms:.2f} ms are "
        "not the all-reduce itself: DDP's own work around it, or processes slowing each other's "
        "compute."
    ),
    "scaling.overlap.hidden": (
        "Overlapping the all-reduce with the backward pass hid {hidden:.0%} of it."
    ),
    "scaling.communication": (
        "The {name} model: communication is {share:.0%} of each step ({exposed_ms:.2f} of "
        "{step_ms:.2f} ms); {kind}. {overlap}"
    ),
    "scaling.lost.unknown": "the loss is communication, or processes slowing each other's compute",
    "scaling.lost.shared": (
        "the loss is communication and shared cores (compute: {contention:.2f}× alone)"
    ),
    "scaling.lost.communication": (
        "the loss is communication (compute beside the others: {contention:.2f}× alone)"
    ),
    "scaling.head.strong": (
        "Strong scaling, {processes} processes: {speedup:.2f}× the throughput of one process "
        "(efficiency {efficiency:.0%})"
    ),
    "scaling.head.weak": (
        "Weak scaling, {processes} processes: {speedup:.2f}× the throughput of one process "
        "(efficiency {efficiency:.0%})"
    ),
    "scaling.verdict.slower": (
        "{head}: **slower than one process**: it loses more than the split work saves; {lost}."
    ),
    "scaling.verdict.above_ideal": (
        "{head}: **above the ideal**, more than N times one process's throughput from N "
        "processes: the one-process run was slowed (noise, or data that fits the caches of N "
        "processes but not of one); repeat it before reading it."
    ),
    "scaling.verdict.perfect": "{head}: **near-perfect** scaling.",
    "scaling.verdict.lossy": "{head}: **useful but lossy**; {lost}.",
    "scaling.verdict.poor": (
        "{head}: **poor**, under 60% of the ideal; the split of a step into compute and "
        "communication says how much of the loss is the all-reduce."
    ),
    "scaling.difference": "{a} minus {b}, per step: {value}: {zero}",
    "scaling.difference.none": "{said}; no difference shows.",
    "scaling.difference.slower": "{said}, so {slower} is slower.",
    "scaling.contention": (
        "Even without communication, computing {rows} rows took {beside_ms:.1f} ms per step "
        "beside the other processes, against {alone_ms:.1f} ms alone"
    ),
    "scaling.contention.shared": (
        "{head}: {ratio:.2f}× as long: the processes share its cores, memory and caches."
    ),
    "scaling.contention.faster": (
        "{head}: {ratio:.2f}× as long, faster beside the others than alone, which sharing "
        "cannot explain: one of the two was disturbed, so this comparison says nothing "
        "about contention."
    ),
    "scaling.contention.same": (
        "{head}: about the same ({ratio:.2f}×), so the processes hardly slowed each other's "
        "compute; what the extra process loses goes to communication."
    ),
    "links.latency": (
        "latency **{value:,.1f} µs** (95% interval {low} to {high} µs; the smallest message, "
        "{size:,.0f} {unit}, took {took_us:,.1f} µs)"
    ),
    "links.rough": (
        "but the points lie far from the curve (typically {error:.0%} of their time): read both "
        "as orders of magnitude"
    ),
    "links.close": "the curve passes within {error:.0%} of the points' times, typically",
    "links.no_bandwidth": (
        "{head}; the time does not grow with the size here: no bandwidth can be read from it; "
        "{miss}"
    ),
    "links.bandwidth": (
        "{head}, bandwidth **{value:.2f} GB/s** (95% interval {low} to {high} GB/s) of {unit}; "
        "{miss}"
    ),
    # helpers.cluster: day 8's findings, cell by cell
    "cluster.measured_on": (
        "Measured on: **{card}**. {why} This lesson runs **{n} processes** with backend "
        "**{backend}**."
    ),
    "cluster.collective": (
        "Each process printed its own line. Every rank added `rank + 1` with `dist.all_reduce` and "
        "got **{total:g}**, the same number everywhere: that is a collective."
    ),
    "cluster.sampler.changes": (
        "{rows} rows over {n} ranks: each rank gets {per_rank}; {twice} row(s) are dealt twice "
        "per epoch (the padding) and {distinct} of the {rows} rows at least once. The shuffled "
        "order changes with the epoch."
    ),
    "cluster.sampler.same": (
        "{rows} rows over {n} ranks: each rank gets {per_rank}; {twice} row(s) are dealt twice "
        "per epoch (the padding) and {distinct} of the {rows} rows at least once. The shuffled "
        "order does **not** change with the epoch."
    ),
    "cluster.ring_bytes": (
        "Each of 4 ranks sent {share:.2f}× the tensor: the bytes went through `dist.isend`, "
        "counted by `helpers.distributed.count_sends`, not computed from the formula."
    ),
    "cluster.buckets": (
        "- Wide network ({mb:.1f} MB of gradients): {buckets}\n- Small network: {item}"
    ),
    "cluster.accepted": "The script accepts it: part `{parts}`, results in `{out}`.",
    "cluster.failure_plan": (
        "Both runs go from step {start} to step {end}. Rank 1 is killed at step **{fail_at}**; "
        "rank 0 writes a checkpoint every **{every}** steps."
    ),
    "cluster.restarts": (
        "`torchrun` started the workers {attempts} times; the last attempt resumed from step "
        "{resumed}. {verdict}"
    ),
    "cluster.failure_price": (
        "The price of the failure: {twice} steps computed twice, and a restart (the killed run "
        "took {killed_s:.0f} s, the undisturbed one {calm_s:.0f} s, side by side)."
    ),
    "cluster.memory": (
        "{billions:g} billion parameters on {gpus} GPUs ({recipe}), activations not included. "
        "Fits in 80 GB (an H100's stated memory): {fits}."
    ),
    "cluster.memory.none": (
        "{billions:g} billion parameters on {gpus} GPUs ({recipe}), activations not included. "
        "Fits in 80 GB (an H100's stated memory): none of these."
    ),
    "cluster.fsdp": (
        "FSDP on {gpus} GPU(s): each holds **{local:,}** of the wide network's {params:,} weights "
        "({share:.0%}); peak memory per rank:"
    ),
    "cluster.fsdp.not_run": (
        "**Not run here: this cell runs FSDP on NVIDIA GPUs only.** FSDP shards with all-gather "
        "and reduce-scatter; the course runs it on NCCL, where it is built to run and its memory "
        "per GPU is what this section is about. On a GPU machine it trains the wide network "
        "sharded and shows each GPU's share of the weights."
    ),
    # day 8's own plots
    "day08.case": "- **{case}:** {verdict}",
    "day08.panel.recipe": "recipe",
    "day08.panel.gpus": "GPUs",
    "day08.panel.billions": "parameters (billions)",
    "day08.panel.title": "Memory per GPU for weights, gradients and optimizer states",
    "day08.column.smallest": "smallest message, {size} bytes, measured (µs)",
    "day08.interval": "{low:,.0f} to {high:,.0f}",
    "day08.column.compute": "compute only",
    "day08.column.ddp": "DDP step",
    "day08.column.allreduce": "all-reduce alone",
    "day08.column.exposed": "waited for communication",
    "day08.column.hidden": "hidden by overlap",
    "day08.plot.tensor_bytes": "tensor size (bytes)",
    "day08.plot.allreduce_us": "time per all-reduce (µs)",
    "day08.plot.ring_title": "All-reduce on {n} processes ({backend}), with the fitted curves",
    # day 8: distributed.same_weights_verdict and the learning-rate cells (05, 11, 13)
    "distributed.plan.cpu": "No GPU: gloo, PyTorch's CPU backend, over loopback TCP.",
    "distributed.plan.mps": "Apple GPU: MPS has no distributed backend, so gloo on the CPU.",
    "distributed.plan.one_gpu": (
        "One NVIDIA GPU: NCCL needs one GPU per process, so the processes run on the CPU "
        "with gloo (the FSDP cell uses the GPU)."
    ),
    "distributed.plan.nccl": "{count} NVIDIA GPUs: NCCL, one GPU per process.",
    "distributed.identical": "{head} end with **identical** {things} (bit for bit).",
    "distributed.same": (
        "{head} end with the **same** {things}: the largest difference, {difference:.1e}, is "
        "within the tolerance {tolerance:.0e} (float32 sums in another order)."
    ),
    "distributed.different": (
        "{head} end with **different** {things}: the largest difference, {difference:.1e}, is "
        "above the tolerance {tolerance:.0e}. Something differs: the rows, the seed, the "
        "learning rate or the averaging."
    ),
    "day08.launched": (
        "`torchrun` started {n} processes, and everything above took **{seconds:.0f} s**."
    ),
    "day08.ddp_vs_one": (
        "DDP on {n} processes with {batch} rows each and one process with {rows} rows"
    ),
    "day08.check_can_fail": (
        "The check can fail: one process with only {batch} rows per step ends "
        "{difference:.1e} away from DDP's weights."
    ),
    "day08.lr_rule": (
        "Suppose the learning rate {lr} was tuned on one process with {batch} rows per step; the "
        "linear rule scales it with the effective batch. (This lesson's run kept {lr} on purpose: "
        "it checks DDP against one process with the same {rows} rows, not against a tuned run.)"
    ),
    "day08.lr.one": "one process (tuned here)",
    "day08.lr.processes": "{n} processes",
    "day08.lr.gpus": "{n} GPUs",
    "day08.lr.accumulation": "{n} GPUs, {steps} accumulation steps",
    "day08.lr.machines": "{machines} machines × {n} GPUs",
    "day08.column.setting": "setting",
    "day08.column.rows_per_rank": "rows per rank",
    "day08.column.processes": "processes",
    "day08.column.accumulation": "accumulation",
    "day08.column.effective_batch": "effective batch",
    "day08.column.lr": "learning rate (linear rule)",
    # helpers.hardware.card_line: the machine in one line (days 1 and 5-8)
    "hardware.cpus_usable": "{cpu} ({n} CPUs usable)",
    "hardware.card_line": (
        "{where} | device {device} | torch {torch} ({build}), {threads} threads | Python {python}"
    ),
    "hardware.card_line_one_thread": (
        "{where} | device {device} | torch {torch} ({build}), {threads} thread | Python {python}"
    ),
    "doctor.title": "Course setup check",
    "doctor.os": "OS",
    "doctor.pytorch": "{version} (build: {build})",
    "doctor.cuda": "CUDA available",
    "doctor.mps": "MPS available",
    "doctor.yes": "True",
    "doctor.no": "False",
    "doctor.devices": "devices",
    "doctor.device": "course device",
    "doctor.device.missing": "NOT AVAILABLE",
    "doctor.device.unset": "{error} Unset COURSE_DEVICE to let the course choose.",
    "doctor.cpu": "{cpu} ({usable} usable of {logical} logical)",
    "doctor.memory": "memory",
    "doctor.mode": "mode",
    "doctor.mode.fast": "fast (COURSE_FAST=1)",
    "doctor.mode.full": "full",
    "doctor.packages": "Packages",
    "doctor.package.missing": "MISSING",
    "doctor.package.install": (
        "{name} is not installed: run `make install` (or `pip install -e .`)."
    ),
    "doctor.tested": "tested versions",
    "doctor.tested.no_lock": "no requirements-lock.txt here: versions not compared",
    "doctor.tested.differ": "{n} installed package(s) differ (see the warning)",
    "doctor.tested.ok": "ok (every package as in requirements-lock.txt)",
    "doctor.sandbox": "grading sandbox",
    "doctor.sandbox.ok": "ok ({detail})",
    "doctor.sandbox.missing": "not available: {detail}",
    "doctor.filter": "notebook filter",
    "doctor.filter.no_clone": "not a git clone: nothing to keep out of commits",
    "doctor.filter.ok": "ok (outputs stay out of git commits)",
    "doctor.filter.off": "off: `python -m helpers git-filter` keeps outputs out of commits",
    "doctor.heart": "Heart data",
    "doctor.ok": "ok",
    "doctor.heart.problem": "PROBLEM",
    "doctor.warn.more": "{shown} and {n} more",
    "doctor.warn.torch": (
        "PyTorch {version} is not the tested {tested}; the course should work, but if "
        "something breaks, try `make install TORCH_SPEC=torch=={tested}`."
    ),
    "doctor.warn.versions": (
        "Versions outside the tested set: {shown}. The course should work; if something "
        "breaks, `make install` installs the tested versions (requirements-lock.txt)."
    ),
    "doctor.warn.cpu_build": (
        "This machine has an NVIDIA GPU but PyTorch is a CPU-only build, so the course runs on "
        "the CPU. Fix: reinstall a CUDA build, e.g. `make install "
        "TORCH_INDEX=https://download.pytorch.org/whl/cu128` (pick the CUDA version for your "
        "driver at {url})."
    ),
    "doctor.warn.driver": (
        "PyTorch is built for CUDA {cuda} but sees no GPU: the driver may be too old for this "
        "build. Check `nvidia-smi`: the 'CUDA Version' it shows needs at least the same major "
        "version as {cuda} (within one major version, CUDA's minor-version compatibility lets "
        "a newer build run), else install a build for an older CUDA."
    ),
    "doctor.warn.compile": (
        "{problem}. Everything else runs; day 5's compiled variants are left out."
    ),
    "doctor.warn.mps": (
        "This is an Apple silicon Mac but MPS is not available: update macOS (12.3+) and check "
        "that Python is a native arm64 build (`python -c 'import platform; "
        "print(platform.machine())'` should print arm64)."
    ),
    "doctor.warning": "WARNING: {warning}",
    "doctor.error": "ERROR: {error}",
    "doctor.good": "All good: the course will run on {device}.",
    "doctor.good.warnings": "All good (with warnings): the course will run on {device}.",
    "day00.loss_not_down": "The loss did not go down: training is broken.",
    "day00.fix_errors": "Fix the errors reported above, then run this cell again.",
    "device.no_such_gpu": (
        "{source} asked for {name!r}, but this machine has {n} CUDA device(s) ({present}). "
        "Available here: {available}."
    ),
    "device.missing": "{source} asked for {name!r}, but {why}. Available here: {available}.",
    "device.not_a_name": (
        "{source} asked for {name!r}, which is not a device name. Use one of: {available}."
    ),
    "device.missing.other": "PyTorch does not support this device type in this course",
    "device.missing.mps": (
        "MPS is built in but not available (it needs macOS 12.3+ on Apple silicon)"
    ),
    "device.missing.no_mps_build": (
        "this PyTorch was built without MPS (MPS exists only on Apple silicon Macs)"
    ),
    "device.missing.no_gpu": (
        "PyTorch has CUDA support but finds no GPU (no GPU, or no working driver)"
    ),
    "device.missing.cpu_build": (
        "this PyTorch is a CPU-only build (torch {torch}); install a CUDA build (see the "
        "README, 'Getting the right PyTorch')"
    ),
    "data.changed": (
        "{path} has the right shape but different content (SHA-256 {digest}..., expected "
        "{expected}...): it was edited or damaged. {restore} To load a file of your own, pass "
        "verify=False."
    ),
    "data.non_numeric": (
        "{path} has non-numeric values in {columns} (missing values must be written '?'). {restore}"
    ),
    "data.rows": "{path} has {rows} rows of data; the Cleveland data has {expected}. {restore}",
    "data.columns": (
        "{path} has the wrong columns (missing: {missing}; unexpected: {extra}; expected, in "
        "order: {expected}). {restore}"
    ),
    "data.not_csv": "{path} is not a readable CSV file ({err}). {restore}",
    "data.not_found": "Heart Disease data not found at {path}. {restore}",
    "data.restore": (
        "The course's copy belongs at {path}; restore it with `git checkout -- "
        "data/heart_cleveland.csv` (see data/README.md for its source)."
    ),
    "data.none": "none",
    "joint.labelled": "{label}: {value}",
    "joint.clauses": "; ",
    "joint.items": ", ",
}
