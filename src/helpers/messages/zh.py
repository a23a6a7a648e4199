"""The course's printed sentences in Chinese: the names and placeholders of helpers.messages.en."""

MESSAGES = {
    # helpers.show.compare_guess
    "guess.none": "还没有写下猜测：在上面的单元里写一个并运行它，然后再运行这个单元。",
    "guess.words": "你猜的是 {guess}；运行结果：{measured}。",
    "guess.choice": "你猜的是 {guess}，运行给出 {measured}：{verdict}。",
    "guess.right": "猜对了",
    "guess.wrong": "这次没猜中",
    "guess.close": "你猜的是 {guess}，运行测得 {measured}：很接近。",
    "guess.high": "你猜的是 {guess}，运行测得 {measured}：偏高。",
    "guess.low": "你猜的是 {guess}，运行测得 {measured}：偏低。",
    "guess.high_by": "你猜的是 {guess}，运行测得 {measured}：偏高，约为实测值的 {ratio:.0f} 倍。",
    "guess.low_by": "你猜的是 {guess}，运行测得 {measured}：偏低，约为实测值的 1/{ratio:.0f}。",
    # helpers.course.checks
    "check.head": "{exercise}：{total} 项检查通过了 {passed} 项",
    "check.well_done": "，做得好！",
    "check.mark.passed": "通过",
    "check.mark.failed": "失败",
    "check.mark.error": "出错",
    "check.mark.not answered": "待答",
    "check.mark.other": "跳过",
    "check.false": "条件为 False",
    "check.not_answered": (
        "还没有作答：把 EXERCISE {exercise} 单元中的 `{placeholder}` 换成你的答案，然后运行该单元"
    ),
    "check.name_error": "NameError：{error}。你运行过 EXERCISE {exercise} 单元及它上面的单元了吗？",
    "check.bad_id": "{exercise!r} 不是练习编号；编号的样子是 'day00.device'。",
    "check.unknown": (
        "{path} 中没有练习 {exercise!r}。它的练习有：{known}。如果你删除了它的 TEST 单元，"
        "请从课程仓库恢复这个 notebook 的测试单元。"
    ),
    # days 0-4, 6 and 7: the lesson modules' findings and verdicts (one block per module)
    # helpers.stats
    "stats.interval": "{value}（{confidence:.0%} 置信区间 {low} 至 {high}）",
    "stats.zero.excluded": "区间不含零",
    "stats.zero.included": "区间包含零，所以这 {n} 次测量无法把它与零区分开",
    "stats.difference": "{a} 减 {b} 为 {value}：{zero}。",
    "stats.difference.larger": "{a} 减 {b} 为 {value}：{zero}，所以 {larger} 大于 {smaller}。",
    "stats.rows.head": "共 {n} 行，只有 {a} 答对的有 {a_only} 行，只有 {b} 答对的有 {b_only} 行",
    "stats.rows.same": "{head}：两者答对的行完全相同，没有什么能把它们区分开。",
    "stats.rows.better": "{head}：差距大到不像是运气（精确检验，p = {p:.3f}）：**{better}** 更好。",
    "stats.rows.luck": (
        "{head}：这样的差距可能只是运气（精确检验，p = {p:.2f}），这些行区分不出两者，"
        "应当保留更简单的模型。"
    ),
    "stats.price": "{what}的代价是 {value}：{zero}",
    "stats.price.noise": (
        "{price}。这些运行无法把代价与噪声区分开：在测量范围内它累计仍可能达到 {most_ms:.1f} ms，"
        "而 a = {a_s:.3f} s。"
    ),
    "stats.price.negative": (
        "{price}，但它是负的：这不是真实的开销，而是运行中的漂移或顺序效应。请增加重复次数后重新运行。"
    ),
    "stats.price.above_noise": (
        "{price}；在测量范围内它使时间改变 {effect_ms:.1f} ms，"
        "大于运行间的噪声（{noise_ms:.1f} ms）。"
    ),
    "stats.price.below_noise": (
        "{price}；在测量范围内它使时间改变 {effect_ms:.1f} ms，"
        "小于运行间的噪声（{noise_ms:.1f} ms）。"
    ),
    "stats.bend": "测量范围内的弯曲为 {value}",
    "stats.bend.sharpness": (
        "这些运行（以 {power:.0%} 的概率）能发现 {bend_ms:.1f} ms 或更大的弯曲，"
        "以及 {slope_us:.2f} µs 或更高的{what}代价"
    ),
    "stats.line.straight": "直线成立：{bend}；{zero}。但这并不证明它是直的：{sharpness}。",
    "stats.line.upwards": (
        "直线不适用：{bend}；{zero}，所以时间向上弯曲（{what}的开销随数量增加而上升）。"
        "作为参照：{sharpness}。"
    ),
    "stats.line.downwards": (
        "直线不适用：{bend}；{zero}，所以时间向下弯曲（{what}的开销随数量增加而下降）。"
        "作为参照：{sharpness}。"
    ),
    # day 5: loops, claims, compiled and the day's conclusions
    # receipts: a GPU's figures beside this machine's (helpers.receipts)
    # day 8: distributed, ranks, ddp_train and the day's conclusions
}

WORDS = {
    # the units code passes to compare_guess(..., what)
    "parameters": "个参数",
    "percent": "%",
    "physical cores": "个物理核心",
    "pre-hook calls": "次前置钩子调用",
    "medians": "个中位数",
    "rows": "行",
    "threads": "个线程",
    # the names code passes to the verdicts of helpers.stats
    "one recording": "每次记录",
    "one-hot": "独热编码",
    "codes": "整数编码",
    "leaky": "有泄露的做法",
    "honest": "诚实的做法",
    "this choice": "这个选择",
    "the default": "默认值",
}
