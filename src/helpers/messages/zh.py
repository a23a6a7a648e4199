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
    # helpers.course.homework.checks
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
    # day 5: loops, claims, compiled and the day's conclusions
    # receipts: a GPU's figures beside this machine's (helpers.receipts)
    "receipts.label.yours": "{machine}，{day}（你的收据）",
    "receipts.label.reference": "{machine}，{day}（课程的参考收据，不是你的）",
    "receipts.label.here": "本机（{device}），现在",
    "receipts.none": (
        "这里还没有 GPU 的收据，所以只显示本机的数字。在租用的 GPU 上（Colab、Kaggle 或 GPU "
        "平台）运行 `python -m helpers receipt --out my-gpu.json`，把文件复制到 `{folder}`，"
        "再运行这个单元。"
    ),
    "receipts.broken": "跳过了一张损坏的收据：{problem}",
    "receipts.source.yours": "与本机并列：**{label}**，来自 `{file}`。",
    "receipts.source.reference": (
        "与本机并列：**{label}**，来自 `{file}`：由课程测得，不是你测的。"
        "你自己的收据放在 `receipts/` 文件夹里，会取代它。"
    ),
    "receipts.source.also": "另有：**{label}**，来自 `{file}`。",
    "receipts.missing": "未测量",
    "receipts.card.device": "设备",
    "receipts.card.memory": "内存",
    "receipts.card.driver": "驱动 / CUDA",
    "receipts.card.torch": "PyTorch 版本",
    "receipts.card.cpu": "主机 CPU，线程数",
    "receipts.copy.h2d_pageable": "主机到设备，可分页内存",
    "receipts.copy.h2d_pinned": "主机到设备，锁页内存",
    "receipts.copy.d2h_pageable": "设备到主机，可分页内存",
    "receipts.copy.d2h_pinned": "设备到主机，锁页内存",
    "receipts.copy.on_device": "设备内部（在 CPU 上：内存到内存）",
    "receipts.day02.pinned": (
        "在那台设备上，{size:,} 字节的锁页内存拷贝比可分页内存拷贝快 {ratio:.1f}×："
        "可分页内存的拷贝要先经过一个锁页的中转缓冲区。"
    ),
    "receipts.day05.item": "单独一次 `.item()`",
    "receipts.day05.recording": "循环中的一次记录（它的代价 `b`）",
    "receipts.day05.launches": "启动一个轮次 的内核（启动开销的底噪）",
    "receipts.day05.lesson": "课程循环的一个轮次（{lesson}）",
    "receipts.day05.kept": "损失留在设备上的一个轮次（没有等待）",
    "receipts.day05.fastest": "最快变体的一个轮次（{fastest}）",
    "receipts.day05.student": "按这些价格计算学生的运行：20,000 个轮次，200 次记录",
    "receipts.day05.no_busy": "这张收据没有课程循环的设备忙碌占比，所以不在它上面判断第三部分。",
    "receipts.day05.verdict": (
        "**第三部分（异步提交）：** 本机 *{here}*；在 {label} 上 *{there}*。{evidence}"
    ),
    "receipts.day05.median": (
        "（收据记录的是每个变体加速比的中位数，而不是各轮的下四分位数：上面的判断用的是中位数。）"
    ),
    "receipts.day06.none": (
        "没有可以与本机曲线并列的 GPU 曲线：这里没有 GPU 的收据。在租用的 GPU 上运行 "
        "`python -m helpers receipt --out my-gpu.json`，把文件复制到 `{folder}`，再运行这个笔记本；"
        "在那之前，下面的交叉点只能由课程的那一次运行给出界限。"
    ),
    "receipts.day07.device_busy_share": "设备忙碌占比",
    "receipts.day07.MFU": "MFU",
    "receipts.day07.peak": "峰值 FLOP/s（一个大矩阵乘法）",
    "receipts.day07.bandwidth": "内存带宽（设备内部的一次大拷贝）",
    "receipts.day07.pinned": "主机到设备拷贝，锁页内存",
    "receipts.day08.none": (
        "这里没有两块或更多 GPU 的收据，所以没有真实链路上的全归约可以展示。在有多块 GPU 的"
        "机器上运行 `python -m helpers receipt --out my-gpus.json`，把文件复制到 `{folder}`。"
    ),
    "receipts.day08.column": "全归约（all-reduce）总线带宽，{gpus} 块 GPU：{label}",
    "receipts.day08.ratio": (
        "**{method}** 在本机：拟合得 {here}；收据中的 GPU 达到 {there}，是它的 {ratio:,.0f}×。"
    ),
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
}
