<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Processor Studio</source>
        <translation>关于 Processor Studio</translation>
    </message>
    <message>
        <source>Design LLM agents and test their guardrails by hand.</source>
        <translation>设计大语言模型智能体，并亲手测试它们的护栏。</translation>
    </message>
    <message>
        <source>Your threads and designs are kept in&lt;br&gt;{folder}</source>
        <translation>你的对话和设计保存在&lt;br&gt;{folder}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bundled components&lt;/b&gt; and their licences</source>
        <translation>&lt;b&gt;内置组件&lt;/b&gt;及其许可证</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>Qt and PySide6 are used under the GNU LGPL v3; their source is available from qt.io.</source>
        <translation>Qt 和 PySide6 依据 GNU LGPL v3 使用；其源代码可从 qt.io 获取。</translation>
    </message>
    <message>
        <source>The licence texts are in {file}</source>
        <translation>许可证全文见 {file}</translation>
    </message>
    <message>
        <source>LGPL-3.0-only (as shipped by PySide6)</source>
        <translation>LGPL-3.0-only（随 PySide6 发行）</translation>
    </message>
</context>
<context>
    <name>AgentSettings</name>
    <message>
        <source>What the agent is for, how it should answer…</source>
        <translation>智能体的用途、应如何回答……</translation>
    </message>
    <message>
        <source>A litellm model id, provider/model (e.g. openai/gpt-4o-mini), or demo (offline)</source>
        <translation>litellm 模型 ID，格式为 提供方/模型（如 openai/gpt-4o-mini），或 demo（离线）</translation>
    </message>
    <message>
        <source>provider default</source>
        <translation>提供方默认值</translation>
    </message>
    <message>
        <source>Other model settings as JSON, e.g. {&quot;seed&quot;: 7}</source>
        <translation>其他模型设置（JSON），如 {&quot;seed&quot;: 7}</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名称(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Instructions</source>
        <translation>指令(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>API &amp;base</source>
        <translation>API 地址(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Temperature</source>
        <translation>温度(&amp;T)</translation>
    </message>
    <message>
        <source>Max to&amp;kens</source>
        <translation>最大令牌数(&amp;K)</translation>
    </message>
    <message>
        <source>Top &amp;p</source>
        <translation>核采样 Top &amp;p</translation>
    </message>
    <message>
        <source>Other model settings</source>
        <translation>其他模型设置</translation>
    </message>
    <message>
        <source>Too&amp;ls</source>
        <translation>工具(&amp;L)</translation>
    </message>
    <message>
        <source>MCP ser&amp;vers</source>
        <translation>MCP 服务器(&amp;V)</translation>
    </message>
    <message>
        <source>Processor &amp;retries</source>
        <translation>处理器重试次数(&amp;R)</translation>
    </message>
    <message>
        <source>Max &amp;steps</source>
        <translation>最大步数(&amp;S)</translation>
    </message>
    <message>
        <source>{url} for a local server</source>
        <translation>{url}（本地服务器）</translation>
    </message>
    <message>
        <source>Local or self-hosted servers only</source>
        <translation>仅限本地或自托管服务器</translation>
    </message>
    <message>
        <source>Only for local or self-hosted servers (Ollama, LM Studio)</source>
        <translation>仅用于本地或自托管服务器（Ollama、LM Studio）</translation>
    </message>
    <message>
        <source>Not valid JSON: {error}</source>
        <translation>不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <source>Expected a JSON object, e.g. {&quot;seed&quot;: 7}</source>
        <translation>应为 JSON 对象，如 {&quot;seed&quot;: 7}</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>A processor plug-in was skipped: {error}</source>
        <translation>已跳过一个处理器插件：{error}</translation>
    </message>
    <message>
        <source>Processor Studio cannot open its data</source>
        <translation>Processor Studio 无法打开其数据</translation>
    </message>
</context>
<context>
    <name>ChainEditor</name>
    <message>
        <source>Not installed: cannot run</source>
        <translation>未安装：无法运行</translation>
    </message>
    <message>
        <source>Invalid: {problem}</source>
        <translation>无效：{problem}</translation>
    </message>
    <message>
        <source>enabled</source>
        <translation>已启用</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <source>, invalid</source>
        <translation>，无效</translation>
    </message>
    <message>
        <source>Only processors from the palette or from a chain can be dropped here</source>
        <translation>只能把处理器面板或链中的处理器拖放到这里</translation>
    </message>
    <message>
        <source>(disabled: skipped when the agent runs)</source>
        <translation>（已停用：智能体运行时跳过）</translation>
    </message>
    <message>
        <source>There is no {lane!r} lane: the lanes are {lanes}</source>
        <translation>没有 {lane!r} 通道：现有通道为 {lanes}</translation>
    </message>
    <message>
        <source>{type} is not in the catalogue (is the plug-in or file that provides it installed?)</source>
        <translation>{type} 不在目录中（提供它的插件或文件是否已安装？）</translation>
    </message>
    <message>
        <source>{type} cannot go in the {lane} lane: it implements no processor hook</source>
        <translation>{type} 不能放入{lane}通道：它未实现任何处理器钩子</translation>
    </message>
    <message>
        <source>{type} cannot go in the {lane} lane: it implements {hooks}; the {lane} lane runs {runs}</source>
        <translation>{type} 不能放入{lane}通道：它实现的是 {hooks}；{lane}通道运行的是 {runs}</translation>
    </message>
    <message>
        <source>{items} or {last}</source>
        <translation>{items} 或 {last}</translation>
    </message>
    <message>
        <source>Drop input processors here</source>
        <translation>将输入处理器拖放到这里</translation>
    </message>
    <message>
        <source>Drop output processors here</source>
        <translation>将输出处理器拖放到这里</translation>
    </message>
    <message>
        <source>Drop error processors here</source>
        <translation>将错误处理器拖放到这里</translation>
    </message>
    <message>
        <source>{lane} chain</source>
        <translation>{lane}链</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Chain editor message</source>
        <translation>链编辑器消息</translation>
    </message>
    <message>
        <source>Hooks run from this lane: {hooks}</source>
        <translation>此通道运行的钩子：{hooks}</translation>
    </message>
    <message>
        <source>Enable/Disable</source>
        <translation>启用/停用</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Move Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Move Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Move to Previous Lane</source>
        <translation>移到上一个通道</translation>
    </message>
    <message>
        <source>Move to Next Lane</source>
        <translation>移到下一个通道</translation>
    </message>
</context>
<context>
    <name>ChatDocument</name>
    <message>
        <source>● ● ●  writing…</source>
        <translation>● ● ●  正在输入……</translation>
    </message>
    <message>
        <source>■ Stopped</source>
        <translation>■ 已停止</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>✖ Error</source>
        <translation>✖ 错误</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>a processor asked for another try</source>
        <translation>某个处理器要求重试</translation>
    </message>
    <message>
        <source>↻ Retried:</source>
        <translation>↻ 已重试：</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>运行中……</translation>
    </message>
    <message>
        <source>✔ done</source>
        <translation>✔ 完成</translation>
    </message>
    <message>
        <source>✖ failed</source>
        <translation>✖ 失败</translation>
    </message>
    <message>
        <source>⊘ blocked by {0}</source>
        <translation>⊘ 被 {0} 拦截</translation>
    </message>
    <message>
        <source>⊘ blocked by a processor</source>
        <translation>⊘ 被某个处理器拦截</translation>
    </message>
    <message>
        <source>changed for the model</source>
        <translation>已为模型修改</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Tool returned</source>
        <translation>工具返回</translation>
    </message>
    <message>
        <source>Given to the model (after process_tool_result)</source>
        <translation>交给模型的内容（经 process_tool_result 处理后）</translation>
    </message>
    <message>
        <source>Result (given to the model)</source>
        <translation>结果（交给模型的内容）</translation>
    </message>
    <message>
        <source>Tool returned (not given to the model)</source>
        <translation>工具返回（未交给模型）</translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation>已拦截</translation>
    </message>
    <message>
        <source>A tripwire of {0} kept this result from the model.</source>
        <translation>{0} 的拦截使模型未看到此结果。</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>⚠ Tripwire</source>
        <translation>⚠ 触发拦截</translation>
    </message>
    <message>
        <source>processor</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>(retry asked)</source>
        <translation>（要求重试）</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>元数据</translation>
    </message>
</context>
<context>
    <name>ChatItems</name>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>Model call failed ({where}): {error}</source>
        <translation>模型调用失败（{where}）：{error}</translation>
    </message>
    <message>
        <source>Model call failed: {error}</source>
        <translation>模型调用失败：{error}</translation>
    </message>
    <message>
        <source>The pattern of rule &apos;{rule}&apos; took longer than {seconds} s on a text of {length} characters (it backtracks catastrophically); the run was stopped</source>
        <translation>规则“{rule}”的模式在 {length} 个字符的文本上运行超过 {seconds} 秒（发生灾难性回溯），运行已停止</translation>
    </message>
    <message>
        <source>{error} (processor &apos;{processor}&apos;, {hook})</source>
        <translation>{error}（处理器“{processor}”，{hook}）</translation>
    </message>
    <message>
        <source>{error} (processor &apos;{processor}&apos;)</source>
        <translation>{error}（处理器“{processor}”）</translation>
    </message>
    <message>
        <source>(%n more character(s))</source>
        <translation>（还有 %n 个字符）</translation>
    </message>
    <message>
        <source>unknown model</source>
        <translation>未知模型</translation>
    </message>
    <message>
        <source>{tokens} tokens ({input} in, {output} out)</source>
        <translation>{tokens} 个令牌（输入 {input}，输出 {output}）</translation>
    </message>
    <message>
        <source>tokens not reported</source>
        <translation>未报告令牌数</translation>
    </message>
    <message>
        <source>cost unknown</source>
        <translation>费用未知</translation>
    </message>
    <message>
        <source>first text {time}</source>
        <translation>首个文字 {time}</translation>
    </message>
    <message>
        <source>no text</source>
        <translation>无文字</translation>
    </message>
    <message>
        <source>total {time}</source>
        <translation>总计 {time}</translation>
    </message>
    <message>
        <source>{ms} ms</source>
        <translation>{ms} 毫秒</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <source>Tripwire ({processor}): {reason}</source>
        <translation>触发拦截（{processor}）：{reason}</translation>
    </message>
    <message>
        <source>Tripwire: {reason}</source>
        <translation>触发拦截：{reason}</translation>
    </message>
    <message>
        <source>Error: {error}</source>
        <translation>错误：{error}</translation>
    </message>
</context>
<context>
    <name>ChatListView</name>
    <message>
        <source>Show this tripwire in the inspector</source>
        <translation>在检查器中显示此拦截</translation>
    </message>
    <message>
        <source>Show or hide the call&apos;s details</source>
        <translation>显示或隐藏此调用的详情</translation>
    </message>
</context>
<context>
    <name>ChatQueue</name>
    <message>
        <source>Queued — sent when the reply ends</source>
        <translation>已排队——回复结束后发送</translation>
    </message>
    <message>
        <source>Remove this message from the queue</source>
        <translation>从队列中移除此消息</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>&lt;h3&gt;Start the conversation&lt;/h3&gt;Type below, or try one of these:</source>
        <translation>&lt;h3&gt;开始对话&lt;/h3&gt;在下方输入，或试试以下内容：</translation>
    </message>
    <message>
        <source>Message the agent — Enter sends, Shift+Enter adds a line</source>
        <translation>给智能体发消息——Enter 发送，Shift+Enter 换行</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Send (Enter)</source>
        <translation>发送（Enter）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>停止回复（Esc）</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Edit and resend</source>
        <translation>编辑并重新发送</translation>
    </message>
    <message>
        <source>Resend</source>
        <translation>重新发送</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>Queue: sent when the reply ends (Enter)</source>
        <translation>排队：回复结束后发送（Enter）</translation>
    </message>
</context>
<context>
    <name>Connection</name>
    <message>
        <source>No API key is set for {provider}: save one above (or set the provider&apos;s environment variable).</source>
        <translation>尚未为 {provider} 设置 API 密钥：请在上方保存一个（或设置该提供方的环境变量）。</translation>
    </message>
    <message>
        <source>No answer within {seconds} s from {where}.</source>
        <translation>{where} 在 {seconds} 秒内没有应答。</translation>
    </message>
    <message>
        <source>Failed — {error}</source>
        <translation>失败——{error}</translation>
    </message>
    <message>
        <source>Connected to {model} — it replied “{reply}”</source>
        <translation>已连接到 {model}——它回复了“{reply}”</translation>
    </message>
    <message>
        <source>Connected to {model}</source>
        <translation>已连接到 {model}</translation>
    </message>
</context>
<context>
    <name>DebugController</name>
    <message>
        <source>No run is paused.</source>
        <translation>没有暂停的运行。</translation>
    </message>
    <message>
        <source>a chunk is a JSON object</source>
        <translation>数据块必须是一个 JSON 对象</translation>
    </message>
    <message>
        <source>The chunk is not valid: {0}</source>
        <translation>数据块无效：{0}</translation>
    </message>
    <message>
        <source>The chunk must stay a {0} chunk.</source>
        <translation>数据块必须仍是 {0} 类型的数据块。</translation>
    </message>
    <message>
        <source>The state is not valid JSON: {0}</source>
        <translation>状态不是有效的 JSON：{0}</translation>
    </message>
    <message>
        <source>The state is a JSON object.</source>
        <translation>状态必须是一个 JSON 对象。</translation>
    </message>
</context>
<context>
    <name>DebugPanel</name>
    <message>
        <source>any hook</source>
        <translation>任意钩子</translation>
    </message>
    <message>
        <source>any processor (an id, e.g. pii-detector)</source>
        <translation>任意处理器（填 ID，例如 pii-detector）</translation>
    </message>
    <message>
        <source>any chunk type (e.g. text-delta)</source>
        <translation>任意数据块类型（例如 text-delta）</translation>
    </message>
    <message>
        <source>any text</source>
        <translation>任意文本</translation>
    </message>
    <message>
        <source>any step</source>
        <translation>任意步骤</translation>
    </message>
    <message>
        <source>Add breakpoint</source>
        <translation>添加断点</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Hook</source>
        <translation>钩子</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>Chunk type</source>
        <translation>数据块类型</translation>
    </message>
    <message>
        <source>Text contains</source>
        <translation>文本包含</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>No run is paused. Set a breakpoint, then send a message.</source>
        <translation>没有暂停的运行。请先设置断点，再发送消息。</translation>
    </message>
    <message>
        <source>Step</source>
        <comment>the number of the step to pause in</comment>
        <translation>步骤</translation>
    </message>
    <message>
        <source>The chunk the processor is about to receive (JSON)</source>
        <translation>处理器即将收到的数据块（JSON）</translation>
    </message>
    <message>
        <source>The processor&apos;s state (JSON)</source>
        <translation>处理器的状态（JSON）</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Go on and pause again before the very next processor call</source>
        <translation>继续运行，并在下一次处理器调用前再次暂停</translation>
    </message>
    <message>
        <source>Abort the run</source>
        <translation>中止运行</translation>
    </message>
    <message>
        <source>&lt;b&gt;Breakpoints&lt;/b&gt;</source>
        <translation>&lt;b&gt;断点&lt;/b&gt;</translation>
    </message>
    <message>
        <source>any processor</source>
        <translation>任意处理器</translation>
    </message>
    <message>
        <source>chunk {0}</source>
        <translation>数据块 {0}</translation>
    </message>
    <message>
        <source>text contains {0}</source>
        <translation>文本包含 {0}</translation>
    </message>
    <message>
        <source>step {0}</source>
        <translation>步骤 {0}</translation>
    </message>
    <message>
        <source> (step {0})</source>
        <translation>（步骤 {0}）</translation>
    </message>
    <message>
        <source>Paused before {0}.{1}{2}: edit what it receives or its state, then continue.</source>
        <translation>已在 {0}.{1}{2} 之前暂停：可编辑它将收到的内容或它的状态，然后继续。</translation>
    </message>
    <message>
        <source>Messages: {0}</source>
        <translation>消息：{0}</translation>
    </message>
    <message>
        <source>This state holds objects that are not JSON: it can be read, not edited.</source>
        <translation>此状态包含非 JSON 对象：只能查看，不能编辑。</translation>
    </message>
    <message>
        <source>The run goes on.</source>
        <translation>运行继续。</translation>
    </message>
</context>
<context>
    <name>DesignError</name>
    <message>
        <source>{lane_title}, #{position} ({type}): Invalid options for {type}: {options}</source>
        <translation>{lane_title}，第 {position} 个（{type}）：{type} 的选项无效：{options}</translation>
    </message>
    <message>
        <source>{lane_title}, #{position} ({type}): {error}</source>
        <translation>{lane_title}，第 {position} 个（{type}）：{error}</translation>
    </message>
    <message>
        <source>{lane_title}, #{position} ({type}): another processor of this agent has the id &apos;{id}&apos; and this one&apos;s id cannot be changed (two processors with one id would share their state); remove one of them</source>
        <translation>{lane_title}，第 {position} 个（{type}）：此智能体中已有另一个处理器的 id 为“{id}”，而这个处理器的 id 无法更改（同一 id 的两个处理器会共用状态）；请移除其中一个</translation>
    </message>
    <message>
        <source>model.model: choose a model (a litellm id such as &apos;openai/gpt-4o-mini&apos;, or &apos;demo&apos;)</source>
        <translation>model.model：请选择一个模型（litellm 模型 ID，如 &apos;openai/gpt-4o-mini&apos;，或 &apos;demo&apos;）</translation>
    </message>
    <message>
        <source>model.model: the provider &apos;{provider}&apos; could not build &apos;{model}&apos;: {error}</source>
        <translation>model.model：提供方 &apos;{provider}&apos; 无法构建 &apos;{model}&apos;：{error}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: tools load only from the tools folder ({folder}); &apos;{file}&apos; is an absolute path</source>
        <translation>工具 &apos;{name}&apos;：工具只能从工具文件夹（{folder}）加载；&apos;{file}&apos; 是绝对路径</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: &apos;{file}&apos; is not a Python file (file.py:function)</source>
        <translation>工具 &apos;{name}&apos;：&apos;{file}&apos; 不是 Python 文件（应写作 &apos;file.py:function&apos;）</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: cannot resolve &apos;{file}&apos;: {error}</source>
        <translation>工具 &apos;{name}&apos;：无法解析 &apos;{file}&apos;：{error}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: tools load only from the tools folder ({folder}); &apos;{file}&apos; leads outside it, to {target}</source>
        <translation>工具 &apos;{name}&apos;：工具只能从工具文件夹（{folder}）加载；&apos;{file}&apos; 指向文件夹之外：{target}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: the file {file} is not in the tools folder ({folder})</source>
        <translation>工具 &apos;{name}&apos;：工具文件夹（{folder}）中没有文件 {file}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: no such demo tool (demo tools: {known}; a tool from a file is written &apos;file.py:function&apos;)</source>
        <translation>工具 &apos;{name}&apos;：没有这个演示工具（演示工具：{known}；来自文件的工具写作 &apos;file.py:function&apos;）</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: cannot import {file}: {error}</source>
        <translation>工具 &apos;{name}&apos;：无法导入 {file}：{error}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: {file} has no function named &apos;{function}&apos;</source>
        <translation>工具 &apos;{name}&apos;：{file} 中没有名为 &apos;{function}&apos; 的函数</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: &apos;{function}&apos; in {file} is not a function</source>
        <translation>工具 &apos;{name}&apos;：{file} 中的 &apos;{function}&apos; 不是函数</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: {error}</source>
        <translation>工具 &apos;{name}&apos;：{error}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: its name &apos;{tool}&apos; is already used by &apos;{other}&apos;</source>
        <translation>工具 &apos;{name}&apos;：它的名称 &apos;{tool}&apos; 已被 &apos;{other}&apos; 使用</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos; of an MCP server: the name is already used</source>
        <translation>MCP 服务器的工具 &apos;{name}&apos;：该名称已被使用</translation>
    </message>
    <message>
        <source>model.api_base: credentials (a user name and password, or a key in the query) must not be saved in a design, where anyone it is shared with reads them; the studio reads API keys from the keyring when a run starts</source>
        <translation>model.api_base：凭据（用户名和密码，或查询参数中的密钥）不得保存在设计中，否则任何拿到该设计的人都能读到；工作室会在运行开始时从系统密钥环读取 API 密钥</translation>
    </message>
    <message>
        <source>model.extra.{key}: API keys must not be saved in a design; the studio reads them from the keyring when a run starts</source>
        <translation>model.extra.{key}：API 密钥不得保存在设计中；工作室会在运行开始时从系统密钥环读取</translation>
    </message>
    <message>
        <source>{credential}: credentials (keys, tokens, secrets, Authorization headers) must not be saved in a design, where anyone it is shared with reads them; the studio reads API keys from the keyring when a run starts</source>
        <translation>{credential}：凭据（密钥、令牌、机密、Authorization 标头）不得保存在设计中，否则任何拿到该设计的人都能读到；工作室会在运行开始时从系统密钥环读取 API 密钥</translation>
    </message>
    <message>
        <source>model.extra.{key}: &apos;{key}&apos; is set by the model settings themselves, not as an extra setting</source>
        <translation>model.extra.{key}：&apos;{key}&apos; 由模型设置本身设定，不能作为额外设置</translation>
    </message>
    <message>
        <source>Not a usable agent design: {error}</source>
        <translation>不是可用的智能体设计：{error}</translation>
    </message>
    <message>
        <source>Not valid JSON (line {line}, column {column}): {error}</source>
        <translation>不是有效的 JSON（第 {line} 行，第 {column} 列）：{error}</translation>
    </message>
    <message>
        <source>Not a text file: {error}</source>
        <translation>不是文本文件：{error}</translation>
    </message>
    <message>
        <source>Input chain</source>
        <translation>输入链</translation>
    </message>
    <message>
        <source>Output chain</source>
        <translation>输出链</translation>
    </message>
    <message>
        <source>Error chain</source>
        <translation>错误链</translation>
    </message>
    <message>
        <source>version: missing — this does not look like an agent design file</source>
        <translation>version：缺失——这看起来不是智能体设计文件</translation>
    </message>
    <message>
        <source>version: must be a whole number, got {value}</source>
        <translation>version：必须是整数，实际为 {value}</translation>
    </message>
    <message>
        <source>version: this design was saved by a newer Processor Studio (design format {version}; this version reads formats up to {supported}). Update Processor Studio to open it.</source>
        <translation>version：此设计由更新版本的 Processor Studio 保存（设计格式 {version}；本版本最多读取格式 {supported}）。请更新 Processor Studio 后再打开。</translation>
    </message>
    <message>
        <source>version: unknown design format {version}</source>
        <translation>version：未知的设计格式 {version}</translation>
    </message>
    <message>
        <source>An agent design is a JSON object, not a list</source>
        <translation>智能体设计应是 JSON 对象，而不是列表</translation>
    </message>
    <message>
        <source>An agent design is a JSON object, not a string</source>
        <translation>智能体设计应是 JSON 对象，而不是字符串</translation>
    </message>
    <message>
        <source>An agent design is a JSON object, not null</source>
        <translation>智能体设计应是 JSON 对象，而不是 null</translation>
    </message>
    <message>
        <source>An agent design is a JSON object, not a boolean</source>
        <translation>智能体设计应是 JSON 对象，而不是布尔值</translation>
    </message>
    <message>
        <source>An agent design is a JSON object, not a number</source>
        <translation>智能体设计应是 JSON 对象，而不是数字</translation>
    </message>
    <message>
        <source>Invalid agent design:
{listing}</source>
        <translation>智能体设计无效：
{listing}</translation>
    </message>
    <message>
        <source>{file}: cannot read the file: {error}</source>
        <translation>{file}：无法读取文件：{error}</translation>
    </message>
    <message>
        <source>{file}: {error}</source>
        <translation>{file}：{error}</translation>
    </message>
    <message>
        <source>(design)</source>
        <translation>（设计）</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>The script could not be generated as valid Python ({error}); nothing was written</source>
        <translation>无法生成有效的 Python 脚本（{error}）；未写入任何内容</translation>
    </message>
    <message>
        <source>{name} is defined inside a function and cannot be exported</source>
        <translation>{name} 定义在函数内部，无法导出</translation>
    </message>
    <message>
        <source>{name} comes from {module}, which a script cannot import</source>
        <translation>{name} 来自 {module}，脚本无法导入它</translation>
    </message>
    <message>
        <source>The replay diverged at step {step}: its outcome is not what the model said, so it cannot be a regression test. Export a replay that did not diverge.</source>
        <translation>重放在第 {step} 步出现分歧：其结果不是模型当时所说的，因此不能作为回归测试。请导出没有分歧的重放。</translation>
    </message>
</context>
<context>
    <name>DesignHints</name>
    <message>
        <source>Tool results go unchecked (indirect injection): the prompt-injection detector is only in the {input} lane.</source>
        <translation>工具结果未经检查（间接注入）：提示注入检测器只在{input}通道。</translation>
    </message>
    <message>
        <source>This agent has tools, but its prompt-injection detector is only in the {input} lane, which never sees tool results: instructions hidden in a page or an e-mail a tool returns reach the model unchecked (indirect injection).</source>
        <translation>此智能体有工具，但它的提示注入检测器只在{input}通道，而该通道看不到工具结果：工具返回的网页或邮件里藏着的指令会不经检查地到达模型（间接注入）。</translation>
    </message>
    <message>
        <source>Add to the {output} lane</source>
        <translation>添加到{output}通道</translation>
    </message>
    <message>
        <source>Add a prompt-injection detector with the same options to the {output} lane, checking tool results (undoable)</source>
        <translation>把一个选项相同、检查工具结果的提示注入检测器添加到{output}通道（可撤销）</translation>
    </message>
</context>
<context>
    <name>DivergenceBar</name>
    <message>
        <source>Stop here</source>
        <translation>在此停止</translation>
    </message>
    <message>
        <source>Continue with the live model</source>
        <translation>改用实时模型继续</translation>
    </message>
</context>
<context>
    <name>EndpointApproval</name>
    <message>
        <source>not a valid domain name</source>
        <translation>不是有效的域名</translation>
    </message>
    <message>
        <source>Send your API key to another server?</source>
        <translation>要把你的 API 密钥发送到另一台服务器吗？</translation>
    </message>
    <message>
        <source>Send your &lt;b&gt;{provider}&lt;/b&gt; API key to &lt;b&gt;{host}&lt;/b&gt;?</source>
        <translation>要把你的 &lt;b&gt;{provider}&lt;/b&gt; API 密钥发送到 &lt;b&gt;{host}&lt;/b&gt; 吗？</translation>
    </message>
    <message>
        <source>Your key was saved for {saved_for}. The design you are using sends its {provider} requests to:&lt;br&gt;&lt;code&gt;{endpoint}&lt;/code&gt;&lt;br&gt;&lt;br&gt;A design from someone else can name any server. Allow it only if you trust this server with your key; your answer is remembered for this key.</source>
        <translation>你的密钥是为 {saved_for} 保存的。你正在使用的设计会把 {provider} 请求发送到：&lt;br&gt;&lt;code&gt;{endpoint}&lt;/code&gt;&lt;br&gt;&lt;br&gt;他人的设计可以指定任意服务器。只有在你信任此服务器、愿意把密钥交给它时才允许；你的选择会针对此密钥记住。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Warning:&lt;/b&gt; {labels} mixes letters of different alphabets, as names that imitate another server&apos;s do. Its real name is {ascii}.</source>
        <translation>&lt;b&gt;警告：&lt;/b&gt;{labels} 混用了不同字母表的字母，冒充其他服务器的名称常常这样做。它的真实名称是 {ascii}。</translation>
    </message>
    <message>
        <source>Allow my key for this server</source>
        <translation>允许向此服务器发送我的密钥</translation>
    </message>
    <message>
        <source>Don&apos;t send it</source>
        <translation>不要发送</translation>
    </message>
</context>
<context>
    <name>ExportNotes</name>
    <message>
        <source>The report holds each case&apos;s text as written in the corpus (before any guardrail: attacks and any personal data in them included), the reply after the guardrails (what a user would have seen, masked where they masked), each guardrail&apos;s outcome and reason, timings, tokens and cost, and the design&apos;s name. Never an API key; the model&apos;s raw answers stay in the studio.</source>
        <translation>报告包含每个用例在语料中的原文（未经任何护栏：其中的攻击文本和个人数据都会包含在内）、经过护栏后的回复（即用户会看到的内容，护栏遮盖之处仍是遮盖的）、每个护栏的结果和原因、耗时、令牌数和费用，以及设计的名称。绝不包含 API 密钥；模型的原始回答留在工作室中。</translation>
    </message>
    <message>
        <source>The comparison holds both runs&apos; figures and, for each case whose verdict changed, its id, label, category, outcomes and the guardrails that tripped, and the designs&apos; names: no case text, no reply, never an API key.</source>
        <translation>对比结果包含两次运行的数据，以及每个判定发生变化的用例的 ID、标签、类别、结果和触发的护栏，还有设计的名称：不含用例文本、不含回复，绝不包含 API 密钥。</translation>
    </message>
    <message>
        <source>The file holds the thread&apos;s messages as the guardrails let them through, and its runs for another studio: their traces and the recordings of what the model answered and the tools returned before any guardrail, so whatever the guardrails masked in the chat is in it, unmasked. Never an API key.</source>
        <translation>该文件包含护栏放行后的对话消息，以及供另一个工作室使用的运行记录：其跟踪，以及模型回答和工具返回内容在经过任何护栏之前的录制，因此护栏在聊天中遮盖的内容会以未遮盖的形式包含在内。绝不包含 API 密钥。</translation>
    </message>
    <message>
        <source>The test holds the design (its chain and options, never an API key), the thread before the run, the run&apos;s message, and the recording of what the model answered and the tools returned before any guardrail: whatever the guardrails masked in the chat (an e-mail address, say) is in it, unmasked. Share it as you would the conversation itself.</source>
        <translation>该测试包含设计（处理链及其选项，绝不包含 API 密钥）、运行前的对话、本次运行的消息，以及模型回答和工具返回内容在经过任何护栏之前的录制：护栏在聊天中遮盖的内容（例如电子邮件地址）会以未遮盖的形式包含在内。请像对待这段对话本身一样谨慎分享。</translation>
    </message>
</context>
<context>
    <name>ImportProgress</name>
    <message>
        <source>Reading the file…</source>
        <translation>正在读取文件……</translation>
    </message>
    <message>
        <source>Checking the messages…</source>
        <translation>正在检查消息……</translation>
    </message>
    <message>
        <source>Saving the messages…</source>
        <translation>正在保存消息……</translation>
    </message>
    <message>
        <source>Another thread import is still running.</source>
        <translation>另一个对话导入仍在进行。</translation>
    </message>
    <message>
        <source>Cannot read {file}: {error}</source>
        <translation>无法读取 {file}：{error}</translation>
    </message>
    <message>
        <source>Import refused, nothing was written: {error}</source>
        <translation>导入被拒绝，未写入任何内容：{error}</translation>
    </message>
    <message>
        <source>Import of {file} failed, nothing was written: {error}</source>
        <translation>导入 {file} 失败，未写入任何内容：{error}</translation>
    </message>
    <message>
        <source>Importing {name}…</source>
        <translation>正在导入 {name}……</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Import thread</source>
        <translation>导入对话</translation>
    </message>
    <message>
        <source>Thread import refused: {problems}</source>
        <translation>对话导入被拒绝：{problems}</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source> (and {count} more)</source>
        <translation>（另有 {count} 个）</translation>
    </message>
</context>
<context>
    <name>Inspector</name>
    <message>
        <source>Entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Milliseconds spent in processor calls (for a stream summary: its per-chunk calls added up)</source>
        <translation>处理器调用耗费的毫秒数（流式汇总：各数据块调用之和）</translation>
    </message>
    <message>
        <source>run {id}</source>
        <translation>运行 {id}</translation>
    </message>
    <message>
        <source>thread {id}</source>
        <translation>对话 {id}</translation>
    </message>
    <message>
        <source>{seconds} s wall time</source>
        <translation>实际耗时 {seconds} 秒</translation>
    </message>
    <message>
        <source>{processor} in {hook}</source>
        <translation>{processor}，位于 {hook}</translation>
    </message>
    <message>
        <source>Run {number}</source>
        <translation>运行 {number}</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>元数据</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Run {number} ({status}, a judge failed)</source>
        <translation>运行 {number}（{status}，判定模型失败）</translation>
    </message>
    <message>
        <source>Run {number} ({status})</source>
        <translation>运行 {number}（{status}）</translation>
    </message>
    <message>
        <source>Step {number}</source>
        <translation>第 {number} 步</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>judge failed, blocked</source>
        <translation>判定模型失败，已拦截</translation>
    </message>
    <message>
        <source>judge failed, offline verdict</source>
        <translation>判定模型失败，离线判定</translation>
    </message>
    <message>
        <source>%n chunk(s)</source>
        <translation>%n 个数据块</translation>
    </message>
    <message>
        <source>chunk {number}: {type}</source>
        <translation>数据块 {number}：{type}</translation>
    </message>
    <message>
        <source>Tripwires</source>
        <translation>拦截</translation>
    </message>
    <message>
        <source>Violations</source>
        <translation>违规</translation>
    </message>
    <message>
        <source>Raw</source>
        <translation>原始数据块</translation>
    </message>
    <message>
        <source>Select an entry in the timeline to see what it changed.</source>
        <translation>在时间线中选择一个条目，查看它改动了什么。</translation>
    </message>
    <message>
        <source>%n unchanged line(s) not shown</source>
        <translation>未显示 %n 行未改动的内容</translation>
    </message>
    <message>
        <source>Only the first {cap} lines of each side are compared; {before} more line(s) before and {after} after are not shown.</source>
        <translation>只比较了前后两侧各前 {cap} 行；修改前还有 {before} 行、修改后还有 {after} 行未显示。</translation>
    </message>
    <message>
        <source>no calls</source>
        <translation>无调用</translation>
    </message>
    <message>
        <source>(the chunk went no further)</source>
        <translation>（该数据块未再向后传递）</translation>
    </message>
    <message>
        <source>Hide the chunk JSON</source>
        <translation>隐藏数据块 JSON</translation>
    </message>
    <message>
        <source>Show the chunk JSON</source>
        <translation>显示数据块 JSON</translation>
    </message>
    <message>
        <source>step {number}</source>
        <translation>第 {number} 步</translation>
    </message>
    <message>
        <source>before the first step</source>
        <translation>第一步之前</translation>
    </message>
    <message>
        <source>processor #{index}</source>
        <translation>处理器 #{index}</translation>
    </message>
    <message>
        <source>{ms} ms</source>
        <translation>{ms} 毫秒</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Input (the call gave nothing back)</source>
        <translation>输入（此调用没有返回内容）</translation>
    </message>
    <message>
        <source>Before → after (unchanged)</source>
        <translation>之前 → 之后（未改动）</translation>
    </message>
    <message>
        <source>Before → after</source>
        <translation>之前 → 之后</translation>
    </message>
    <message>
        <source>Chunks: {count} seen, {changed} changed, {held} held back and let out later, {dropped} dropped, {raised} raised, {aborted} aborted</source>
        <translation>数据块：收到 {count} 个，修改 {changed} 个，暂扣后放行 {held} 个，丢弃 {dropped} 个，抛出异常 {raised} 个，中止 {aborted} 个</translation>
    </message>
    <message>
        <source>Chunk change {number}</source>
        <translation>数据块改动 {number}</translation>
    </message>
    <message>
        <source>… and %n more change(s).</source>
        <translation>……另有 %n 处改动。</translation>
    </message>
    <message>
        <source>Every chunk passed unchanged.</source>
        <translation>所有数据块都原样通过。</translation>
    </message>
    <message>
        <source>State after the call</source>
        <translation>调用后的状态</translation>
    </message>
    <message>
        <source>Judge failed:</source>
        <translation>判定模型失败：</translation>
    </message>
    <message>
        <source>Run {run} on thread {thread}</source>
        <translation>运行 {run}，所属对话 {thread}</translation>
    </message>
    <message>
        <source>Run {run}</source>
        <translation>运行 {run}</translation>
    </message>
    <message>
        <source>Finish reason: {reason}</source>
        <translation>结束原因：{reason}</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <source>{ms} ms in processors</source>
        <translation>处理器耗时 {ms} 毫秒</translation>
    </message>
    <message>
        <source>Calls: {counts}</source>
        <translation>调用：{counts}</translation>
    </message>
    <message>
        <source>Tripwire:</source>
        <translation>触发拦截：</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <source>Warning:</source>
        <translation>警告：</translation>
    </message>
    <message>
        <source>unknown processor</source>
        <translation>未知处理器</translation>
    </message>
    <message>
        <source>Chunk change {number} by {processor} (step {step})</source>
        <translation>数据块改动 {number}，由 {processor} 造成（第 {step} 步）</translation>
    </message>
    <message>
        <source>Processor state at the step&apos;s end</source>
        <translation>该步结束时的处理器状态</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>全部类型</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <source>Showing the last {shown} chunks ({dropped} older dropped)</source>
        <translation>显示最近 {shown} 个数据块（已丢弃较早的 {dropped} 个）</translation>
    </message>
    <message>
        <source>learned model</source>
        <translation>学习模型</translation>
    </message>
    <message>
        <source>phrase heuristics</source>
        <translation>短语启发式规则</translation>
    </message>
    <message>
        <source>phrase heuristics and learned model</source>
        <translation>短语启发式规则和学习模型</translation>
    </message>
    <message>
        <source>judge model</source>
        <translation>评判模型</translation>
    </message>
    <message>
        <source>Score {score} reached the threshold {threshold}: flagged</source>
        <translation>得分 {score} 达到阈值 {threshold}：已标记</translation>
    </message>
    <message>
        <source>Score {score}: at or above the threshold, flagged</source>
        <translation>得分 {score}：达到或高于阈值，已标记</translation>
    </message>
    <message>
        <source>Score {score} of the last text; %n text(s) flagged</source>
        <translation>最后一条文本得分 {score}；已标记 %n 条文本</translation>
    </message>
    <message>
        <source>Score {score}: below the threshold {threshold}, passed</source>
        <translation>得分 {score}：低于阈值 {threshold}，已放行</translation>
    </message>
    <message>
        <source>Score {score}: below the threshold, passed</source>
        <translation>得分 {score}：低于阈值，已放行</translation>
    </message>
    <message>
        <source>scored by the {source}</source>
        <translation>评分来自{source}</translation>
    </message>
    <message>
        <source>The score (0 to 1) of the last text checked; the threshold and above is flagged.</source>
        <translation>最后一条被检查文本的得分（0 到 1）；达到阈值及以上即被标记。</translation>
    </message>
</context>
<context>
    <name>JudgeFailures</name>
    <message>
        <source>The judge of {processor} failed ({error}): the run was blocked (fail-closed).</source>
        <translation>{processor} 的判定模型失败（{error}）：运行已被拦截（出错时拦截）。</translation>
    </message>
    <message>
        <source>The judge of {processor} failed ({error}): its verdict is the offline checks&apos; alone, without the judge (fail-open).</source>
        <translation>{processor} 的判定模型失败（{error}）：结论仅来自离线检查，未经判定模型（出错时放行）。</translation>
    </message>
</context>
<context>
    <name>LabAttack</name>
    <message>
        <source>An attack is already running: cancel it first.</source>
        <translation>已有攻击在运行：请先取消它。</translation>
    </message>
    <message>
        <source>Add at least one chain of converters to attack with.</source>
        <translation>请至少添加一条用于攻击的转换链。</translation>
    </message>
    <message>
        <source>Tick at least one corpus with attacks on the left.</source>
        <translation>请在左侧至少勾选一个含攻击用例的语料。</translation>
    </message>
    <message>
        <source>The strategies cannot start: {error}</source>
        <translation>策略无法启动：{error}</translation>
    </message>
    <message>
        <source>Not started: the estimate was declined.</source>
        <translation>未启动：估算未获同意。</translation>
    </message>
    <message>
        <source>Cancelling the attack…</source>
        <translation>正在取消攻击…</translation>
    </message>
    <message>
        <source>The attack stopped: {error}</source>
        <translation>攻击已停止：{error}</translation>
    </message>
    <message>
        <source>Attack finished: %n variant(s), {bypassed} got through.</source>
        <translation>攻击完成：%n 个变体，{bypassed} 个突破。</translation>
    </message>
    <message>
        <source>Attack cancelled after %n variant(s), {bypassed} got through; Resume goes on.</source>
        <translation>攻击在 %n 个变体后取消，{bypassed} 个突破；点“继续”可接着运行。</translation>
    </message>
    <message>
        <source> The strategies wrote no variant %n time(s) ({error}).</source>
        <translation> 策略有 %n 次未能写出变体（{error}）。</translation>
    </message>
    <message>
        <source>The bypasses were not added: {error}</source>
        <translation>突破用例未能添加：{error}</translation>
    </message>
    <message>
        <source>Added %n bypass(es) to {name} ({total} in all).</source>
        <translation>已向 {name} 添加 %n 个突破用例（共 {total} 个）。</translation>
    </message>
    <message>
        <source>Choose the bypasses to export first.</source>
        <translation>请先选择要导出的突破用例。</translation>
    </message>
    <message>
        <source>The test was not written: {error}</source>
        <translation>测试未能写入：{error}</translation>
    </message>
    <message>
        <source>[turn {number}]</source>
        <translation>[第 {number} 轮]</translation>
    </message>
    <message>
        <source>No converter is called {name}.</source>
        <translation>没有名为 {name} 的转换器。</translation>
    </message>
    <message>
        <source>The chain {spec} cannot be read: {problem}</source>
        <translation>无法读取转换链 {spec}：{problem}</translation>
    </message>
    <message>
        <source>The converter {name} failed: {problem}</source>
        <translation>转换器 {name} 出错：{problem}</translation>
    </message>
    <message>
        <source>(empty: add converters)</source>
        <translation>（空：请添加转换器）</translation>
    </message>
    <message>
        <source>Chain</source>
        <translation>转换链</translation>
    </message>
    <message>
        <source>Variants</source>
        <translation>变体数</translation>
    </message>
    <message>
        <source>Got through</source>
        <translation>突破数</translation>
    </message>
    <message>
        <source>ASR</source>
        <translation>攻击成功率</translation>
    </message>
    <message>
        <source>Attack success rate: the share of the chain&apos;s variants that got through</source>
        <translation>攻击成功率：该转换链的变体中突破防护的比例</translation>
    </message>
    <message>
        <source>Of the variants whose seed this processor stopped, the share it no longer stops</source>
        <translation>在其种子被该处理器拦下的变体中，它不再能拦下的比例</translation>
    </message>
    <message>
        <source>{processor} stopped the seeds of {seen} of these variants and no longer stops {evaded} ({share})</source>
        <translation>{processor} 拦下了其中 {seen} 个变体的种子，现在有 {evaded} 个拦不住了（{share}）</translation>
    </message>
    <message>
        <source>{bypassed} of {variants} variants got through; {errors} ended in error</source>
        <translation>{variants} 个变体中有 {bypassed} 个突破；{errors} 个出错</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Search converters</source>
        <translation>搜索转换器</translation>
    </message>
    <message>
        <source>Add to chain →</source>
        <translation>加入转换链 →</translation>
    </message>
    <message>
        <source>Add the selected converters to the end of the chosen chain (Enter, or drag them)</source>
        <translation>把选中的转换器加到所选转换链的末尾（按 Enter，或拖过去）</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>A new, empty chain (Ctrl+N)</source>
        <translation>新建一条空的转换链（Ctrl+N）</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove the chosen chain (Del)</source>
        <translation>移除所选转换链（Del）</translation>
    </message>
    <message>
        <source>Earlier in the chain (Alt+Up)</source>
        <translation>在链中前移（Alt+Up）</translation>
    </message>
    <message>
        <source>Later in the chain (Alt+Down)</source>
        <translation>在链中后移（Alt+Down）</translation>
    </message>
    <message>
        <source>Take the converter out of the chain (Del)</source>
        <translation>把该转换器移出转换链（Del）</translation>
    </message>
    <message>
        <source>The seed case the preview converts</source>
        <translation>预览所转换的种子用例</translation>
    </message>
    <message>
        <source>Choose a chain and a seed to see what the design gets.</source>
        <translation>选择一条转换链和一个种子，即可看到设计实际收到的内容。</translation>
    </message>
    <message>
        <source>Converters</source>
        <translation>转换器</translation>
    </message>
    <message>
        <source>Chains</source>
        <translation>转换链</translation>
    </message>
    <message>
        <source>Steps of the chain</source>
        <translation>转换链的步骤</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>The most variants the attack runs (seeds × chains are drawn within it)</source>
        <translation>攻击最多运行的变体数（在此范围内抽取“种子 × 转换链”组合）</translation>
    </message>
    <message>
        <source>The same seed number gives the same variants</source>
        <translation>相同的随机种子产生相同的变体</translation>
    </message>
    <message>
        <source>off — e.g. paraphrase,pair:3</source>
        <translation>关闭 — 例如 paraphrase,pair:3</translation>
    </message>
    <message>
        <source>Model strategies, separated by commas (paraphrase, translate, tone, tense, pair, crescendo): a model writes variants of each stopped seed. Off until named; their cost is estimated before any call.</source>
        <translation>模型策略，用逗号分隔（paraphrase、translate、tone、tense、pair、crescendo）：由模型为每个被拦下的种子编写变体。不填写即关闭；调用任何模型之前会先估算费用。</translation>
    </message>
    <message>
        <source>attacker model id</source>
        <translation>攻击模型 ID</translation>
    </message>
    <message>
        <source>The model that writes the attacks (any litellm model id)</source>
        <translation>编写攻击的模型（任意 litellm 模型 ID）</translation>
    </message>
    <message>
        <source>judge model id (pair)</source>
        <translation>评判模型 ID（pair）</translation>
    </message>
    <message>
        <source>The model that scores the design&apos;s replies (PAIR)</source>
        <translation>为设计的回复打分的模型（PAIR）</translation>
    </message>
    <message>
        <source>local server (optional)</source>
        <translation>本地服务器（可选）</translation>
    </message>
    <message>
        <source>An OpenAI-compatible server on this machine for both models (http://localhost:…/v1)</source>
        <translation>本机上兼容 OpenAI 的服务器，供两个模型使用（http://localhost:…/v1）</translation>
    </message>
    <message>
        <source>Strategies</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Start attack</source>
        <translation>开始攻击</translation>
    </message>
    <message>
        <source>Run the seeds&apos; variants through the design, in the Lab&apos;s mode (Ctrl+Enter)</source>
        <translation>按实验室当前的模式，让种子的各个变体依次经过设计（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the attack; what finished is kept (Esc)</source>
        <translation>停止攻击；已完成的部分会保留（Esc）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Go on with the attack that did not finish: only what is missing runs (Ctrl+Shift+R)</source>
        <translation>继续未完成的攻击：只运行还缺的部分（Ctrl+Shift+R）</translation>
    </message>
    <message>
        <source>No attack yet</source>
        <translation>尚未发起攻击</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Start the model strategies?</source>
        <translation>要启动模型策略吗？</translation>
    </message>
    <message>
        <source>The strategies call models. At most:</source>
        <translation>这些策略会调用模型。最多：</translation>
    </message>
    <message>
        <source>%n variant(s) · {bypassed} got through · ASR &lt;b&gt;{asr}&lt;/b&gt; · {errors} error(s)</source>
        <translation>%n 个变体 · {bypassed} 个突破 · 攻击成功率 &lt;b&gt;{asr}&lt;/b&gt; · {errors} 个错误</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>finding the seeds the design stops</source>
        <translation>正在找出设计能拦下的种子</translation>
    </message>
    <message>
        <source>running the variants</source>
        <translation>正在运行变体</translation>
    </message>
    <message>
        <source>running the strategies&apos; variants</source>
        <translation>正在运行各策略生成的变体</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>{done} / {total} — {phase}</source>
        <translation>{done} / {total} — {phase}</translation>
    </message>
    <message>
        <source> — cancelled</source>
        <translation> — 已取消</translation>
    </message>
    <message>
        <source>Export the bypasses as a regression test</source>
        <translation>将突破用例导出为回归测试</translation>
    </message>
    <message>
        <source>Python test (*.py)</source>
        <translation>Python 测试 (*.py)</translation>
    </message>
    <message>
        <source>Seeds: the %n attack(s) of the corpora ticked on the left; those the design stops are attacked.</source>
        <translation>种子：左侧勾选的语料中的 %n 个攻击；对设计拦下的那些发起攻击。</translation>
    </message>
    <message>
        <source>Seeds: tick corpora with attacks on the left.</source>
        <translation>种子：请在左侧勾选含攻击用例的语料。</translation>
    </message>
    <message>
        <source>No seed to preview: tick corpora with attacks on the left.</source>
        <translation>没有可预览的种子：请在左侧勾选含攻击用例的语料。</translation>
    </message>
    <message>
        <source>Choose a chain, or make one with New.</source>
        <translation>请选择一条转换链，或点“新建”创建一条。</translation>
    </message>
    <message>
        <source>This chain is empty: add converters to it.</source>
        <translation>这条转换链是空的：请向其中添加转换器。</translation>
    </message>
    <message>
        <source>{chain} · seed {seed} · %n turn(s), as the design receives it</source>
        <translation>{chain} · 随机种子 {seed} · %n 轮，即设计收到的内容</translation>
    </message>
    <message>
        <source>Open as thread</source>
        <translation>作为会话打开</translation>
    </message>
    <message>
        <source>Run the bypass again on a new thread and show it (Enter)</source>
        <translation>在新会话中重新运行该突破用例并显示（Enter）</translation>
    </message>
    <message>
        <source>Add to found bypasses</source>
        <translation>加入已发现的突破</translation>
    </message>
    <message>
        <source>Append the selected bypasses to a corpus the Lab lists on the left (Ctrl+B)</source>
        <translation>把选中的突破用例追加到一个语料中，该语料会列在左侧（Ctrl+B）</translation>
    </message>
    <message>
        <source>Export as regression test…</source>
        <translation>导出为回归测试…</translation>
    </message>
    <message>
        <source>A pytest file that fails until the design stops the selected bypasses (Ctrl+E)</source>
        <translation>生成一个 pytest 文件：在设计拦下所选突破用例之前，它会一直失败（Ctrl+E）</translation>
    </message>
    <message>
        <source>Robustness: what got through, per chain</source>
        <translation>稳健性：各转换链的突破情况</translation>
    </message>
    <message>
        <source>Bypasses</source>
        <translation>突破用例</translation>
    </message>
</context>
<context>
    <name>LabCasesModel</name>
    <message>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Tripped</source>
        <translation>拦截处理器</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation>延迟（毫秒）</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>已拦截</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>已修改</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>已通过</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>attack</source>
        <translation>攻击</translation>
    </message>
    <message>
        <source>benign</source>
        <translation>良性</translation>
    </message>
    <message>
        <source>none of {count}</source>
        <translation>{count} 轮均未拦截</translation>
    </message>
    <message>
        <source>Turn {number}: {text} → {outcome}{tripped}</source>
        <translation>第 {number} 轮：{text} → {outcome}{tripped}</translation>
    </message>
</context>
<context>
    <name>LabController</name>
    <message>
        <source>{path}: no cases in this file</source>
        <translation>{path}：此文件中没有用例</translation>
    </message>
    <message>
        <source>Imported %n case(s) from {name}</source>
        <translation>已从 {name} 导入 %n 个用例</translation>
    </message>
    <message>
        <source>; %n bad line(s) skipped: {first}</source>
        <translation>；跳过了 %n 个错误行：{first}</translation>
    </message>
    <message>
        <source>Nothing was run: this design&apos;s MCP server &apos;{name}&apos; runs a program on this computer ({command}). Allow it when asked, then run again.</source>
        <translation>未运行任何内容：此设计的 MCP 服务器“{name}”会在这台电脑上运行程序（{command}）。请在询问时允许，然后再次运行。</translation>
    </message>
    <message>
        <source>Nothing was run: you did not allow this design&apos;s MCP server &apos;{name}&apos; to run ({command}). Disable its tools in the Agent tab, open the design again to be asked again, or run in guardrails mode (it starts no MCP server).</source>
        <translation>未运行任何内容：您没有允许此设计的 MCP 服务器“{name}”运行（{command}）。请在“智能体”标签页中停用它的工具、重新打开该设计以再次询问，或改用 guardrails 模式运行（该模式不启动 MCP 服务器）。</translation>
    </message>
    <message>
        <source>Starting MCP servers: {names}…</source>
        <translation>正在启动 MCP 服务器：{names}…</translation>
    </message>
    <message>
        <source>Nothing was run: {error}</source>
        <translation>未运行任何内容：{error}</translation>
    </message>
    <message>
        <source>A lab run is already running: cancel it first.</source>
        <translation>已有实验正在运行：请先取消它。</translation>
    </message>
    <message>
        <source>Current design (as it is now)</source>
        <translation>当前设计（现在的样子）</translation>
    </message>
    <message>
        <source>{name} (saved {when})</source>
        <translation>{name}（保存于 {when}）</translation>
    </message>
    <message>
        <source>{name} (as in lab run {when})</source>
        <translation>{name}（与 {when} 的实验运行相同）</translation>
    </message>
    <message>
        <source>{name} (as in a chat run {when})</source>
        <translation>{name}（与 {when} 的对话运行相同）</translation>
    </message>
    <message>
        <source>{name} (file {file})</source>
        <translation>{name}（文件 {file}）</translation>
    </message>
    <message>
        <source>Design {name} read from {file}</source>
        <translation>已从 {file} 读取设计 {name}</translation>
    </message>
    <message>
        <source>Unknown mode {mode!r}</source>
        <translation>未知模式 {mode!r}</translation>
    </message>
    <message>
        <source>Choose a design for A and for B.</source>
        <translation>请为 A 和 B 各选一个设计。</translation>
    </message>
    <message>
        <source>A and B are the same design: pick another for one of them (a saved design, a version an earlier run ran with, or From file…).</source>
        <translation>A 和 B 是同一个设计：请为其中一个另选设计（已保存的设计、之前运行所用的版本，或“从文件…”）。</translation>
    </message>
    <message>
        <source>{letter}: {design} · {corpora}</source>
        <translation>{letter}：{design} · {corpora}</translation>
    </message>
    <message>
        <source>This lab run has no recorded replies to replay: only a run in model mode records them.</source>
        <translation>这个实验没有可重放的录制回复：只有模型模式的运行会录制回复。</translation>
    </message>
    <message>
        <source>The lab run cannot be replayed: {error}</source>
        <translation>无法重放该实验：{error}</translation>
    </message>
    <message>
        <source>Replay of {name} on {design}</source>
        <translation>在 {design} 上重放 {name}</translation>
    </message>
    <message>
        <source>Left out %n case(s) with no recorded reply.</source>
        <translation>有 %n 个用例没有录制的回复，已略过。</translation>
    </message>
    <message>
        <source>input {input}, output {output}, tools {tools}</source>
        <translation>输入 {input}，输出 {output}，工具 {tools}</translation>
    </message>
    <message>
        <source>Choose at least one corpus to run.</source>
        <translation>请至少选择一个语料来运行。</translation>
    </message>
    <message>
        <source>There is no design to run.</source>
        <translation>没有可运行的设计。</translation>
    </message>
    <message>
        <source>The agent could not be built: {error}</source>
        <translation>无法构建智能体：{error}</translation>
    </message>
    <message>
        <source>{design} · {corpora}</source>
        <translation>{design} · {corpora}</translation>
    </message>
    <message>
        <source>That lab run is no longer in the store.</source>
        <translation>该实验已不在存储中。</translation>
    </message>
    <message>
        <source>The lab run cannot be resumed: {error}</source>
        <translation>无法继续该实验：{error}</translation>
    </message>
    <message>
        <source>The lab run whose recorded replies this replays is no longer in the store.</source>
        <translation>被重放录制回复的那次实验已不在存储中。</translation>
    </message>
    <message>
        <source>Cancelling the lab run…</source>
        <translation>正在取消实验……</translation>
    </message>
    <message>
        <source>Lab run finished: %n case(s).</source>
        <translation>实验完成：%n 个用例。</translation>
    </message>
    <message>
        <source>Your {provider} key is not approved for {host}: allow it in Settings → API keys first.</source>
        <translation>你的 {provider} 密钥尚未获准发送到 {host}：请先在“设置 → API 密钥”中允许。</translation>
    </message>
    <message>
        <source>Lab run cancelled after {done} of {total} cases; Resume runs the rest.</source>
        <translation>实验已在完成 {total} 个用例中的 {done} 个后取消；“继续”会运行其余用例。</translation>
    </message>
    <message>
        <source>A lab run is running: its results stay on show until it ends or is cancelled.</source>
        <translation>有实验正在运行：在它结束或被取消之前，会一直显示它的结果。</translation>
    </message>
    <message>
        <source>Cancel the running lab run before deleting it.</source>
        <translation>请先取消正在运行的实验，再删除它。</translation>
    </message>
    <message>
        <source>Lab run deleted.</source>
        <translation>实验已删除。</translation>
    </message>
    <message>
        <source>There is no A/B comparison to export yet.</source>
        <translation>还没有可导出的 A/B 比较。</translation>
    </message>
    <message>
        <source>There are no results to export yet.</source>
        <translation>还没有可导出的结果。</translation>
    </message>
    <message>
        <source>The report was not written: {error}</source>
        <translation>报告未写入：{error}</translation>
    </message>
    <message>
        <source>Wrote {name}</source>
        <translation>已写入 {name}</translation>
    </message>
    <message>
        <source>The case cannot be opened: {error}</source>
        <translation>无法打开该用例：{error}</translation>
    </message>
    <message>
        <source>Lab: {case}</source>
        <translation>实验室：{case}</translation>
    </message>
    <message>
        <source>The design has no input or tool-result guard to run side by side.</source>
        <translation>该设计没有可并列运行的输入防护或工具结果防护。</translation>
    </message>
    <message>
        <source>{guard} alone · {corpora}</source>
        <translation>单独运行 {guard} · {corpora}</translation>
    </message>
</context>
<context>
    <name>LabCurves</name>
    <message>
        <source>Drag to see recall and false-positive rate at each threshold</source>
        <translation>拖动以查看每个阈值下的召回率和误报率</translation>
    </message>
    <message>
        <source>&lt;b&gt;{threshold}&lt;/b&gt; · recall &lt;b&gt;{recall}&lt;/b&gt; · FPR &lt;b&gt;{fpr}&lt;/b&gt;</source>
        <translation>&lt;b&gt;{threshold}&lt;/b&gt; · 召回率 &lt;b&gt;{recall}&lt;/b&gt; · 误报率 &lt;b&gt;{fpr}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Lowest threshold within this FPR</source>
        <translation>此误报率内的最低阈值</translation>
    </message>
    <message>
        <source>Put the slider on the lowest threshold (the highest recall) whose false-positive rate stays within the budget</source>
        <translation>把滑块移到误报率不超过预算的最低阈值（召回率最高）</translation>
    </message>
    <message>
        <source>Use in the design</source>
        <translation>用于设计</translation>
    </message>
    <message>
        <source>Write this threshold into the guard&apos;s options in the editor (Ctrl+Z undoes it)</source>
        <translation>把这个阈值写入编辑器中该防护的选项（Ctrl+Z 可撤销）</translation>
    </message>
    <message>
        <source>Guard:</source>
        <translation>防护：</translation>
    </message>
    <message>
        <source>FPR budget:</source>
        <translation>误报率预算：</translation>
    </message>
    <message>
        <source>Threshold:</source>
        <translation>阈值：</translation>
    </message>
    <message>
        <source>{attacks} attacks, {benign} benign cases scored · ROC AUC {roc} · PR AUC {pr}</source>
        <translation>已评分 {attacks} 个攻击、{benign} 个正常用例 · ROC AUC {roc} · PR AUC {pr}</translation>
    </message>
    <message>
        <source>No threshold keeps the false-positive rate within {budget}</source>
        <translation>没有阈值能使误报率不超过 {budget}</translation>
    </message>
    <message>
        <source>No guard gave scores in these results.</source>
        <translation>这些结果中没有防护给出分数。</translation>
    </message>
    <message>
        <source>Scores: attacks vs benign</source>
        <translation>分数：攻击与正常</translation>
    </message>
    <message>
        <source>ROC curve (AUC {auc})</source>
        <translation>ROC 曲线（AUC {auc}）</translation>
    </message>
    <message>
        <source>false-positive rate</source>
        <translation>误报率</translation>
    </message>
    <message>
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>Precision-recall (AUC {auc})</source>
        <translation>精确率-召回率（AUC {auc}）</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>attacks</source>
        <translation>攻击</translation>
    </message>
    <message>
        <source>benign</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Guard</source>
        <translation>防护</translation>
    </message>
    <message>
        <source>ms per case</source>
        <translation>每个用例毫秒数</translation>
    </message>
    <message>
        <source>tokens per case</source>
        <translation>每个用例令牌数</translation>
    </message>
    <message>
        <source>USD per case</source>
        <translation>每个用例美元</translation>
    </message>
    <message>
        <source>Run each guard alone</source>
        <translation>逐个单独运行防护</translation>
    </message>
    <message>
        <source>Run the chosen corpora once per input and tool-result guard of the design, each guard alone (not as a chain), and compare them: recall, FPR, AUC and cost per case</source>
        <translation>对设计中的每个输入防护和工具结果防护各运行一次所选语料，每次只运行该防护（不组成链），并加以比较：召回率、误报率、AUC 和每个用例的开销</translation>
    </message>
    <message>
        <source>Guards side by side</source>
        <translation>防护并列比较</translation>
    </message>
</context>
<context>
    <name>LabLists</name>
    <message>
        <source>bundled with the studio</source>
        <translation>随 Processor Studio 提供</translation>
    </message>
    <message>
        <source>
%n bad line(s) skipped</source>
        <translation>
已跳过 %n 个错误行</translation>
    </message>
    <message>
        <source>{name} (%n case(s))</source>
        <translation>{name}（%n 个用例）</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source> · recall {recall}, FPR {fpr}</source>
        <translation> · 召回率 {recall}，误报率 {fpr}</translation>
    </message>
    <message>
        <source>{when} {name} — {status} {done}/{total}{figures}</source>
        <translation>{when} {name} — {status} {done}/{total}{figures}</translation>
    </message>
    <message>
        <source>; resumed {count}×</source>
        <translation>；继续过 {count} 次</translation>
    </message>
    <message>
        <source>guardrails</source>
        <translation>护栏</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>Mode {mode}, corpora: {corpora}{resumed}</source>
        <translation>模式 {mode}，语料：{corpora}{resumed}</translation>
    </message>
    <message>
        <source>other languages</source>
        <translation>其他语言</translation>
    </message>
</context>
<context>
    <name>LabTables</name>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>FPR</source>
        <translation>误报率</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>模型拒绝</translation>
    </message>
    <message>
        <source>Attack succeeded</source>
        <translation>攻击成功</translation>
    </message>
    <message>
        <source>Attack success rate</source>
        <translation>攻击成功率</translation>
    </message>
    <message>
        <source>All cases</source>
        <translation>全部用例</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>用例</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Attack category</source>
        <translation>攻击类别</translation>
    </message>
    <message>
        <source>Not blocked</source>
        <translation>未拦截</translation>
    </message>
    <message>
        <source>Tripped on {count} of this category&apos;s {total} attacks ({share}); changed {changed} more</source>
        <translation>在此类别 {total} 个攻击中拦截了 {count} 个（{share}）；另修改了 {changed} 个</translation>
    </message>
    <message>
        <source>{changed} changed</source>
        <translation>修改 {changed}</translation>
    </message>
    <message>
        <source>{tripped} + {changed} changed</source>
        <translation>{tripped} + 修改 {changed}</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>Attacks blocked</source>
        <translation>拦截的攻击</translation>
    </message>
    <message>
        <source>Only this one</source>
        <translation>仅由它拦截</translation>
    </message>
    <message>
        <source>Benign blocked</source>
        <translation>拦截的良性用例</translation>
    </message>
    <message>
        <source>Recall without it</source>
        <translation>去掉它后的召回率</translation>
    </message>
    <message>
        <source>{without} (now {recall})</source>
        <translation>{without}（当前 {recall}）</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Before (A)</source>
        <translation>之前（A）</translation>
    </message>
    <message>
        <source>After (B)</source>
        <translation>之后（B）</translation>
    </message>
    <message>
        <source>{share} of this category&apos;s attacks</source>
        <translation>占此类别攻击的 {share}</translation>
    </message>
</context>
<context>
    <name>LabView</name>
    <message>
        <source>Guardrail lab — Processor Studio</source>
        <translation>护栏实验室 — Processor Studio</translation>
    </message>
    <message>
        <source>guardrails: the input and output lanes around a fixed reply, no model call (free, fast)
model: the design&apos;s own model answers each case</source>
        <translation>护栏：围绕一个固定回复运行输入和输出通道，不调用模型（免费、快速）
模型：由设计自己的模型回答每个用例</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run the chosen corpora against the design (Ctrl+Enter)</source>
        <translation>用当前设计运行所选语料（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the run; finished cases are kept (Esc)</source>
        <translation>停止运行；已完成的用例会保留（Esc）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Run the cases the selected lab run has not finished (Ctrl+Shift+R)</source>
        <translation>运行所选实验尚未完成的用例（Ctrl+Shift+R）</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <source>JUnit XML…</source>
        <translation>JUnit XML…</translation>
    </message>
    <message>
        <source>HTML…</source>
        <translation>HTML…</translation>
    </message>
    <message>
        <source>No run yet</source>
        <translation>尚未运行</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>replay (recorded replies)</source>
        <translation>重放（录制的回复）</translation>
    </message>
    <message>
        <source>Cases run at once, in every mode. They run in worker processes (one per 200 cases, at most one per processor core), so the window stays responsive; each worker takes a second or two to start.</source>
        <translation>同时运行的用例数，适用于所有模式。用例在工作进程中运行（每 200 个用例一个，最多每个处理器核心一个），因此窗口始终保持响应；每个工作进程需要一两秒启动。</translation>
    </message>
    <message>
        <source>Concurrency</source>
        <translation>并发数</translation>
    </message>
    <message>
        <source>Import corpus…</source>
        <translation>导入语料…</translation>
    </message>
    <message>
        <source>JSONL, CSV, plain text (one prompt a line) or promptfoo YAML (Ctrl+I)</source>
        <translation>JSONL、CSV、纯文本（每行一个提示）或 promptfoo YAML（Ctrl+I）</translation>
    </message>
    <message>
        <source>attacks</source>
        <translation>攻击</translation>
    </message>
    <message>
        <source>benign</source>
        <translation>良性</translation>
    </message>
    <message>
        <source>Skip bad lines (and list them)</source>
        <translation>跳过错误行（并列出）</translation>
    </message>
    <message>
        <source>Unlabelled cases are</source>
        <translation>未标注的用例视为</translation>
    </message>
    <message>
        <source>Compare A/B</source>
        <translation>比较 A/B</translation>
    </message>
    <message>
        <source>Select two lab runs: the older is A, the newer B (Ctrl+D)</source>
        <translation>选择两次实验：较早的为 A，较新的为 B（Ctrl+D）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Re-run from recorded replies</source>
        <translation>用录制的回复重新运行</translation>
    </message>
    <message>
        <source>Put the selected model-mode lab run&apos;s recorded replies through the design as it is now, with no model call, and compare the two (Ctrl+Shift+P)</source>
        <translation>让所选模型模式实验录制的回复通过当前的设计重新运行（不调用模型），并比较两者（Ctrl+Shift+P）</translation>
    </message>
    <message>
        <source>Corpora</source>
        <translation>语料</translation>
    </message>
    <message>
        <source>Lab runs</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>any outcome</source>
        <translation>任意结果</translation>
    </message>
    <message>
        <source>any label</source>
        <translation>任意标签</translation>
    </message>
    <message>
        <source>any category</source>
        <translation>任意类别</translation>
    </message>
    <message>
        <source>any language</source>
        <translation>任意语言</translation>
    </message>
    <message>
        <source>any processor</source>
        <translation>任意处理器</translation>
    </message>
    <message>
        <source>Only misses</source>
        <translation>仅看失误</translation>
    </message>
    <message>
        <source>Attacks not blocked, benign cases blocked, errors</source>
        <translation>未被拦截的攻击、被拦截的良性用例、错误</translation>
    </message>
    <message>
        <source>Search cases (Ctrl+F)</source>
        <translation>搜索用例（Ctrl+F）</translation>
    </message>
    <message>
        <source>Double-click (or Enter) opens the case as a thread with its inspector trace</source>
        <translation>双击（或按 Enter）将用例作为对话打开，并附带其检查器跟踪记录</translation>
    </message>
    <message>
        <source>Per language</source>
        <translation>按语言</translation>
    </message>
    <message>
        <source>Per category</source>
        <translation>按类别</translation>
    </message>
    <message>
        <source>Recall and false-positive rate per category</source>
        <translation>各类别的召回率与误报率</translation>
    </message>
    <message>
        <source>Attack categories × processors: which processor caught what</source>
        <translation>攻击类别 × 处理器：哪个处理器拦下了什么</translation>
    </message>
    <message>
        <source>Each processor&apos;s contribution</source>
        <translation>各处理器的贡献</translation>
    </message>
    <message>
        <source>Select two lab runs on the left and press Compare A/B (Ctrl+D).</source>
        <translation>在左侧选择两次实验，然后按“比较 A/B”（Ctrl+D）。</translation>
    </message>
    <message>
        <source>Run A and B</source>
        <translation>运行 A 和 B</translation>
    </message>
    <message>
        <source>Run the corpora ticked on the left on design A, then on design B (in the mode chosen above), and show the cases whose verdict changed</source>
        <translation>先用设计 A、再用设计 B 运行左侧勾选的语料（使用上方选择的模式），并显示判定发生变化的案例</translation>
    </message>
    <message>
        <source>Design A</source>
        <translation>设计 A</translation>
    </message>
    <message>
        <source>Design B</source>
        <translation>设计 B</translation>
    </message>
    <message>
        <source>From file…</source>
        <translation>从文件…</translation>
    </message>
    <message>
        <source>Pick a design file from disk (a colleague&apos;s exported design, say) for {letter}; it is checked as File → Open design checks it, and nothing runs until you press Run A and B</source>
        <translation>为 {letter} 选择磁盘上的设计文件（例如同事导出的设计）；它会像“文件 → 打开设计”一样被检查，在你按下“运行 A 和 B”之前不会运行任何东西</translation>
    </message>
    <message>
        <source>Export A/B…</source>
        <translation>导出 A/B…</translation>
    </message>
    <message>
        <source>Write this comparison as JSON: both runs&apos; figures, the cases whose verdict changed and the cases only one run has (as &apos;processor-studio lab diff --json&apos; writes it)</source>
        <translation>将此比较写成 JSON：两次运行的指标、判定有变化的用例，以及只在一次运行中出现的用例（与 &apos;processor-studio lab diff --json&apos; 的输出相同）</translation>
    </message>
    <message>
        <source>Not compared: {a} cases only in A, {b} cases only in B (the two runs&apos; corpora differ)</source>
        <translation>未比较：{a} 个用例只在 A 中，{b} 个用例只在 B 中（两次运行的语料不同）</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>用例</translation>
    </message>
    <message>
        <source>Confusion</source>
        <translation>混淆矩阵</translation>
    </message>
    <message>
        <source>Processors</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>A/B</source>
        <translation>A/B</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>Attack</source>
        <translation>攻击</translation>
    </message>
    <message>
        <source>{processor}: threshold {threshold} written into the design (Ctrl+Z undoes it)</source>
        <translation>{processor}：阈值 {threshold} 已写入设计（Ctrl+Z 可撤销）</translation>
    </message>
    <message>
        <source>The design being edited has no {processor} with a threshold to set.</source>
        <translation>正在编辑的设计中没有可设置阈值的 {processor}。</translation>
    </message>
    <message>
        <source>guardrails (no model call)</source>
        <translation>护栏（不调用模型）</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Design: &lt;b&gt;{name}&lt;/b&gt; · model {model}</source>
        <translation>设计：&lt;b&gt;{name}&lt;/b&gt; · 模型 {model}</translation>
    </message>
    <message>
        <source>The first results are on their way…</source>
        <translation>第一批结果即将到来……</translation>
    </message>
    <message>
        <source>No lab run on show.

Tick one or more corpora on the left (or import your own: Ctrl+I), then press Run (Ctrl+Enter). Every case goes through the current design&apos;s guardrails; the table shows which processor caught what.</source>
        <translation>当前没有显示的实验。

在左侧勾选一个或多个语料（或导入你自己的语料：Ctrl+I），然后按“运行”（Ctrl+Enter）。每个用例都会经过当前设计的护栏；表格会显示哪个处理器拦下了什么。</translation>
    </message>
    <message>
        <source>Press Run (Ctrl+Enter) to run the chosen corpora, or pick a lab run on the left.</source>
        <translation>按“运行”（Ctrl+Enter）运行所选语料，或在左侧选择一次实验。</translation>
    </message>
    <message>
        <source>{count} cases · recall &lt;b&gt;{recall}&lt;/b&gt; · precision {precision} · FPR &lt;b&gt;{fpr}&lt;/b&gt;</source>
        <translation>{count} 个用例 · 召回率 &lt;b&gt;{recall}&lt;/b&gt; · 精确率 {precision} · 误报率 &lt;b&gt;{fpr}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>, about {seconds} s left</source>
        <translation>，约剩 {seconds} 秒</translation>
    </message>
    <message>
        <source>{done} / {total} cases{left}</source>
        <translation>{done} / {total} 个用例{left}</translation>
    </message>
    <message>
        <source>{done} / {total} cases</source>
        <translation>{done} / {total} 个用例</translation>
    </message>
    <message>
        <source> — cancelled</source>
        <translation> — 已取消</translation>
    </message>
    <message>
        <source>Select the model-mode lab run whose replies to replay.</source>
        <translation>请选择要重放其回复的模型模式实验。</translation>
    </message>
    <message>
        <source>Select exactly two lab runs to compare.</source>
        <translation>请恰好选择两次实验进行比较。</translation>
    </message>
    <message>
        <source>A: {a}&lt;br&gt;B: {b}&lt;br&gt;recall {r0} → &lt;b&gt;{r1}&lt;/b&gt; · FPR {f0} → &lt;b&gt;{f1}&lt;/b&gt; · {count} cases changed verdict</source>
        <translation>A：{a}&lt;br&gt;B：{b}&lt;br&gt;召回率 {r0} → &lt;b&gt;{r1}&lt;/b&gt; · 误报率 {f0} → &lt;b&gt;{f1}&lt;/b&gt; · {count} 个用例的判定有变化</translation>
    </message>
    <message>
        <source>Delete lab runs</source>
        <translation>删除实验</translation>
    </message>
    <message>
        <source>Delete {count} lab run(s) and their results? Threads opened from their cases stay.</source>
        <translation>删除 {count} 次实验及其结果？从其用例打开的对话会保留。</translation>
    </message>
    <message>
        <source>Import a corpus</source>
        <translation>导入语料</translation>
    </message>
    <message>
        <source>Corpora (*.jsonl *.ndjson *.csv *.txt *.yaml *.yml *.json);;All files (*)</source>
        <translation>语料 (*.jsonl *.ndjson *.csv *.txt *.yaml *.yml *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Design {letter} from a file</source>
        <translation>从文件选择设计 {letter}</translation>
    </message>
    <message>
        <source>Agent designs (*.json);;All files (*)</source>
        <translation>智能体设计 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Export the lab report</source>
        <translation>导出实验报告</translation>
    </message>
    <message>
        <source>Click a category to see its cases</source>
        <translation>点击一个类别查看其案例</translation>
    </message>
    <message>
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>FPR</source>
        <translation>误报率</translation>
    </message>
    <message>
        <source>No results yet</source>
        <translation>还没有结果</translation>
    </message>
    <message>
        <source>no attacks</source>
        <translation>无攻击案例</translation>
    </message>
    <message>
        <source>no benign</source>
        <translation>无良性案例</translation>
    </message>
</context>
<context>
    <name>LaneWords</name>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>Lanes</name>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Runs on the user&apos;s message before the model sees it</source>
        <translation>在模型看到用户消息之前对其运行</translation>
    </message>
    <message>
        <source>Runs on the model&apos;s answer, while it streams and when it is complete</source>
        <translation>对模型的回答运行：流式输出期间及完成时</translation>
    </message>
    <message>
        <source>Runs when the model&apos;s API call fails</source>
        <translation>在模型 API 调用失败时运行</translation>
    </message>
    <message>
        <source>{lane} lane</source>
        <translation>{lane}通道</translation>
    </message>
</context>
<context>
    <name>LanguagePicker</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Restart now</source>
        <translation>立即重启(&amp;R)</translation>
    </message>
    <message>
        <source>Close and start the studio again in the picked language; unsent text is kept</source>
        <translation>关闭并以所选语言重新启动；未发送的文字会保留</translation>
    </message>
    <message>
        <source>Shown after a restart.</source>
        <translation>重启后生效。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&lt;b&gt;Chat&lt;/b&gt;: Enter sends · Shift+Enter new line · Esc stops the reply</source>
        <translation>&lt;b&gt;对话&lt;/b&gt;：Enter 发送 · Shift+Enter 换行 · Esc 停止回复</translation>
    </message>
    <message>
        <source>&lt;b&gt;Replay&lt;/b&gt;: Ctrl+R replays the selected run through the current chain · Ctrl+Alt+R the whole thread</source>
        <translation>&lt;b&gt;重放&lt;/b&gt;：Ctrl+R 用当前处理链重放选中的运行 · Ctrl+Alt+R 重放整个对话</translation>
    </message>
    <message>
        <source>&lt;b&gt;Threads&lt;/b&gt;: Ctrl+N new · F2 rename · Del delete</source>
        <translation>&lt;b&gt;对话列表&lt;/b&gt;：Ctrl+N 新建 · F2 重命名 · Del 删除</translation>
    </message>
    <message>
        <source>&lt;b&gt;Chains&lt;/b&gt;: Space enable/disable · Del remove · Ctrl+↑/↓ reorder · Ctrl+←/→ move to the previous/next lane · Enter in the palette adds the type</source>
        <translation>&lt;b&gt;链&lt;/b&gt;：空格 启用/停用 · Del 移除 · Ctrl+↑/↓ 调整顺序 · Ctrl+←/→ 移到上一个/下一个通道 · 在处理器面板中按 Enter 添加该类型</translation>
    </message>
    <message>
        <source>&lt;b&gt;Edit&lt;/b&gt;: Ctrl+Z undo · Ctrl+Shift+Z redo</source>
        <translation>&lt;b&gt;编辑&lt;/b&gt;：Ctrl+Z 撤销 · Ctrl+Shift+Z 重做</translation>
    </message>
    <message>
        <source>&lt;b&gt;File&lt;/b&gt;: Ctrl+O open design · Ctrl+S save design · Ctrl+E export as Python</source>
        <translation>&lt;b&gt;文件&lt;/b&gt;：Ctrl+O 打开设计 · Ctrl+S 保存设计 · Ctrl+E 导出为 Python</translation>
    </message>
    <message>
        <source>&lt;b&gt;Lab&lt;/b&gt;: Ctrl+L open · Ctrl+W close · Ctrl+Enter run · Esc cancel · Ctrl+Shift+R resume · Ctrl+I import a corpus · Ctrl+F search · Enter opens a case as a thread · Ctrl+D compare two lab runs · Ctrl+Shift+P re-run a model run from its recorded replies</source>
        <translation>&lt;b&gt;护栏实验室&lt;/b&gt;：Ctrl+L 打开 · Ctrl+W 关闭 · Ctrl+Enter 运行 · Esc 取消 · Ctrl+Shift+R 继续 · Ctrl+I 导入语料 · Ctrl+F 搜索 · Enter 将用例作为对话打开 · Ctrl+D 比较两次实验 · Ctrl+Shift+P 用录下的回复重跑模型实验</translation>
    </message>
    <message>
        <source>&lt;b&gt;Every window&lt;/b&gt; (the Lab&apos;s too): Ctrl+Q quit · Ctrl+, API keys and connection · F1 this list</source>
        <translation>&lt;b&gt;所有窗口&lt;/b&gt;（护栏实验室也一样）：Ctrl+Q 退出 · Ctrl+, API 密钥与连接 · F1 本列表</translation>
    </message>
    <message>
        <source>Processors</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>Chains</source>
        <translation>链</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>Guardrails</source>
        <translation>护栏</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Debugger</source>
        <translation>调试器</translation>
    </message>
    <message>
        <source>A tool file was skipped: {problem}</source>
        <translation>已跳过一个工具文件：{problem}</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New agent</source>
        <translation>新建智能体(&amp;N)</translation>
    </message>
    <message>
        <source>Open the &amp;sample agent</source>
        <translation>打开示例智能体(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Open design…</source>
        <translation>打开设计(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save design as…</source>
        <translation>设计另存为(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Export as Python script…</source>
        <translation>导出为 Python 脚本(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Import thread…</source>
        <translation>导入对话(&amp;I)…</translation>
    </message>
    <message>
        <source>E&amp;xport thread…</source>
        <translation>导出对话(&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Editor pane</source>
        <translation>编辑器窗格(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Inspector pane</source>
        <translation>检查器窗格(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;New thread</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Stop the reply</source>
        <translation>停止回复(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Replay the run through the current chain</source>
        <translation>用当前处理链重放运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Replay</source>
        <translation>重放(&amp;R)</translation>
    </message>
    <message>
        <source>Replay the whole &amp;thread through the current chain</source>
        <translation>用当前处理链重放整个对话(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Lab</source>
        <translation>实验室(&amp;L)</translation>
    </message>
    <message>
        <source>Open the guardrail &amp;lab</source>
        <translation>打开护栏实验室(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;API keys and connection…</source>
        <translation>API 密钥与连接(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Language…</source>
        <translation>语言(&amp;L)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Processor Studio</source>
        <translation>关于 Processor Studio(&amp;A)</translation>
    </message>
    <message>
        <source>Replay through the current chain</source>
        <translation>用当前处理链重放</translation>
    </message>
    <message>
        <source>No run to replay in this thread yet.</source>
        <translation>此对话中还没有可重放的运行。</translation>
    </message>
    <message>
        <source>No thread is open.</source>
        <translation>没有打开的对话。</translation>
    </message>
    <message>
        <source>Export run as a regression test</source>
        <translation>将运行导出为回归测试</translation>
    </message>
    <message>
        <source>Python tests (*.py)</source>
        <translation>Python 测试 (*.py)</translation>
    </message>
    <message>
        <source>{name} — Processor Studio</source>
        <translation>{name} — Processor Studio</translation>
    </message>
    <message>
        <source>Open design</source>
        <translation>打开设计</translation>
    </message>
    <message>
        <source>Agent designs (*.json)</source>
        <translation>智能体设计 (*.json)</translation>
    </message>
    <message>
        <source>Save design</source>
        <translation>保存设计</translation>
    </message>
    <message>
        <source>Export as Python</source>
        <translation>导出为 Python</translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation>Python 脚本 (*.py)</translation>
    </message>
    <message>
        <source>Import thread</source>
        <translation>导入对话</translation>
    </message>
    <message>
        <source>Threads (*.json)</source>
        <translation>对话 (*.json)</translation>
    </message>
    <message>
        <source>Export thread</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Undone: {edit} (Ctrl+Shift+Z redoes it)</source>
        <translation>已撤销：{edit}（Ctrl+Shift+Z 可重做）</translation>
    </message>
    <message>
        <source>Redone: {edit} (Ctrl+Z undoes it)</source>
        <translation>已重做：{edit}（Ctrl+Z 可撤销）</translation>
    </message>
</context>
<context>
    <name>McpApproval</name>
    <message>
        <source>Run a program from this design?</source>
        <translation>运行此设计中的程序？</translation>
    </message>
    <message>
        <source>Start the MCP server &lt;b&gt;{name}&lt;/b&gt;? It runs this program:</source>
        <translation>启动 MCP 服务器 &lt;b&gt;{name}&lt;/b&gt;？它会运行这个程序：</translation>
    </message>
    <message>
        <source>(none besides your own)</source>
        <translation>（除您自己的以外没有）</translation>
    </message>
    <message>
        <source>Environment variables it sets:</source>
        <translation>它设置的环境变量：</translation>
    </message>
    <message>
        <source>The program runs with your rights: it can read your files and use the network. A design from someone else can name any program. Allow it only if you trust this command; your answer is remembered for this exact command and environment.</source>
        <translation>该程序以您的权限运行：它可以读取您的文件并使用网络。别人的设计可以指定任何程序。仅在您信任此命令时才允许；您的回答会针对这条命令及其环境记住。</translation>
    </message>
    <message>
        <source>Run this program</source>
        <translation>运行此程序</translation>
    </message>
    <message>
        <source>Don&apos;t run it</source>
        <translation>不运行</translation>
    </message>
</context>
<context>
    <name>McpServerDialog</name>
    <message>
        <source>MCP server</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>A program (stdio)</source>
        <translation>程序（stdio）</translation>
    </message>
    <message>
        <source>A URL (Streamable HTTP)</source>
        <translation>URL（Streamable HTTP）</translation>
    </message>
    <message>
        <source>e.g. npx, uvx or a path to a program</source>
        <translation>例如 npx、uvx 或程序路径</translation>
    </message>
    <message>
        <source>Arguments, as in a shell: -y @modelcontextprotocol/server-filesystem .</source>
        <translation>参数，写法同 shell：-y @modelcontextprotocol/server-filesystem .</translation>
    </message>
    <message>
        <source>NAME=value, one per line (no keys or tokens)</source>
        <translation>NAME=value，每行一个（不要填密钥或令牌）</translation>
    </message>
    <message>
        <source>Name: value, one per line (no credentials)</source>
        <translation>Name: value，每行一个（不要填凭据）</translation>
    </message>
    <message>
        <source>Authorization value, e.g. Bearer …: kept in the keyring</source>
        <translation>Authorization 值，例如 Bearer …：保存在钥匙串中</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名称(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Runs as</source>
        <translation>运行方式(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Command</source>
        <translation>命令(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Arguments</source>
        <translation>参数(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Environment</source>
        <translation>环境变量(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;URL</source>
        <translation>URL(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Headers</source>
        <translation>请求头(&amp;H)</translation>
    </message>
    <message>
        <source>Cre&amp;dential</source>
        <translation>凭据(&amp;D)</translation>
    </message>
    <message>
        <source>Arguments: {error}</source>
        <translation>参数：{error}</translation>
    </message>
    <message>
        <source>Another server is already called &apos;{name}&apos;.</source>
        <translation>已有另一个服务器名为“{name}”。</translation>
    </message>
</context>
<context>
    <name>McpServersView</name>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>List tools</source>
        <translation>列出工具</translation>
    </message>
    <message>
        <source>Start the selected server for a moment and show the tools it offers</source>
        <translation>短暂启动所选服务器并显示它提供的工具</translation>
    </message>
    <message>
        <source>{name} (not offered)</source>
        <translation>{name}（未提供）</translation>
    </message>
    <message>
        <source> Its credential is in the keyring.</source>
        <translation> 其凭据已保存在钥匙串中。</translation>
    </message>
    <message>
        <source> No keyring here: its credential is kept for this session only.</source>
        <translation> 此处没有钥匙串：其凭据仅在本次会话中保留。</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; saved.</source>
        <translation>MCP 服务器“{name}”已保存。</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; removed.</source>
        <translation>MCP 服务器“{name}”已移除。</translation>
    </message>
    <message>
        <source>Select a server first.</source>
        <translation>请先选择一个服务器。</translation>
    </message>
    <message>
        <source>The program of &apos;{name}&apos; came with the design and has not been allowed to run: send a message to be asked, or edit the server.</source>
        <translation>“{name}”的程序来自该设计，尚未被允许运行：发送一条消息以便询问您，或编辑该服务器。</translation>
    </message>
    <message>
        <source>Starting &apos;{name}&apos; to list its tools…</source>
        <translation>正在启动“{name}”以列出其工具…</translation>
    </message>
    <message>
        <source>&apos;{name}&apos; offers %n tool(s); tick those the agent may use.</source>
        <translation>“{name}”提供 %n 个工具；勾选智能体可以使用的工具。</translation>
    </message>
</context>
<context>
    <name>ModelError</name>
    <message>
        <source>The provider did not answer in time</source>
        <translation>提供方未在限定时间内应答</translation>
    </message>
    <message>
        <source>Could not reach the provider</source>
        <translation>无法连接到提供方</translation>
    </message>
    <message>
        <source>The provider closed the stream before it finished</source>
        <translation>提供方在流式输出完成前关闭了连接</translation>
    </message>
    <message>
        <source>Connection error.</source>
        <translation>连接错误。</translation>
    </message>
    <message>
        <source>Request timed out.</source>
        <translation>请求超时。</translation>
    </message>
    <message>
        <source>{error} ({detail})</source>
        <translation>{error}（{detail}）</translation>
    </message>
</context>
<context>
    <name>OptionValue</name>
    <message>
        <source>block</source>
        <translation>阻止</translation>
    </message>
    <message>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>filter</source>
        <translation>过滤</translation>
    </message>
    <message>
        <source>redact</source>
        <translation>遮盖</translation>
    </message>
    <message>
        <source>rewrite</source>
        <translation>改写</translation>
    </message>
    <message>
        <source>detect</source>
        <translation>仅检测</translation>
    </message>
    <message>
        <source>translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>truncate</source>
        <translation>截断</translation>
    </message>
    <message>
        <source>abort</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>fallback</source>
        <translation>使用后备值</translation>
    </message>
    <message>
        <source>fail-open</source>
        <translation>出错时放行</translation>
    </message>
    <message>
        <source>fail-closed</source>
        <translation>出错时拦截</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>hash</source>
        <translation>哈希</translation>
    </message>
    <message>
        <source>remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>placeholder</source>
        <translation>占位符</translation>
    </message>
    <message>
        <source>run</source>
        <translation>每次运行</translation>
    </message>
    <message>
        <source>thread</source>
        <translation>每个对话</translation>
    </message>
    <message>
        <source>resource</source>
        <translation>每个资源</translation>
    </message>
    <message>
        <source>global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>always</source>
        <translation>始终</translation>
    </message>
    <message>
        <source>json</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>llama-guard</source>
        <translation>llama-guard</translation>
    </message>
    <message>
        <source>prompt-guard</source>
        <translation>prompt-guard</translation>
    </message>
    <message>
        <source>shieldgemma</source>
        <translation>shieldgemma</translation>
    </message>
    <message>
        <source>qwen3guard</source>
        <translation>qwen3guard</translation>
    </message>
    <message>
        <source>hybrid</source>
        <translation>混合</translation>
    </message>
    <message>
        <source>heuristics</source>
        <translation>启发式规则</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>学习模型</translation>
    </message>
    <message>
        <source>both</source>
        <translation>两者</translation>
    </message>
    <message>
        <source>cumulative</source>
        <translation>累计</translation>
    </message>
    <message>
        <source>part</source>
        <translation>按部分</translation>
    </message>
    <message>
        <source>best-fit</source>
        <translation>最佳匹配</translation>
    </message>
    <message>
        <source>contiguous</source>
        <translation>连续</translation>
    </message>
    <message>
        <source>memory-only</source>
        <translation>仅记忆</translation>
    </message>
    <message>
        <source>pii</source>
        <translation>个人信息</translation>
    </message>
    <message>
        <source>secrets</source>
        <translation>密钥与凭据</translation>
    </message>
    <message>
        <source>urls</source>
        <translation>网址</translation>
    </message>
    <message>
        <source>email</source>
        <translation>电子邮件</translation>
    </message>
    <message>
        <source>llama-guard-ollama</source>
        <translation>llama-guard-ollama</translation>
    </message>
    <message>
        <source>shieldgemma-ollama</source>
        <translation>shieldgemma-ollama</translation>
    </message>
    <message>
        <source>qwen3guard-ollama</source>
        <translation>qwen3guard-ollama</translation>
    </message>
    <message>
        <source>qwen3guard-vllm</source>
        <translation>qwen3guard-vllm</translation>
    </message>
    <message>
        <source>llama-guard-vllm</source>
        <translation>llama-guard-vllm</translation>
    </message>
    <message>
        <source>prompt-guard-vllm</source>
        <translation>prompt-guard-vllm</translation>
    </message>
    <message>
        <source>llama-guard-llama-cpp</source>
        <translation>llama-guard-llama-cpp</translation>
    </message>
    <message>
        <source>general-lm-studio</source>
        <translation>general-lm-studio</translation>
    </message>
    <message>
        <source>general-ollama</source>
        <translation>general-ollama</translation>
    </message>
    <message>
        <source>phone</source>
        <translation>电话号码</translation>
    </message>
    <message>
        <source>credit-card</source>
        <translation>信用卡号</translation>
    </message>
    <message>
        <source>ssn</source>
        <translation>美国社会安全号</translation>
    </message>
    <message>
        <source>api-key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>ip-address</source>
        <translation>IP 地址</translation>
    </message>
    <message>
        <source>url</source>
        <translation>网址</translation>
    </message>
    <message>
        <source>uuid</source>
        <translation>UUID</translation>
    </message>
    <message>
        <source>crypto-wallet</source>
        <translation>加密货币钱包</translation>
    </message>
    <message>
        <source>iban</source>
        <translation>IBAN 账号</translation>
    </message>
    <message>
        <source>cn-resident-id</source>
        <translation>中国居民身份证号</translation>
    </message>
    <message>
        <source>tw-national-id</source>
        <translation>台湾身份证号</translation>
    </message>
    <message>
        <source>hk-id</source>
        <translation>香港身份证号</translation>
    </message>
    <message>
        <source>name</source>
        <translation>姓名</translation>
    </message>
    <message>
        <source>address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>date-of-birth</source>
        <translation>出生日期</translation>
    </message>
    <message>
        <source>injection</source>
        <translation>指令注入</translation>
    </message>
    <message>
        <source>jailbreak</source>
        <translation>越狱</translation>
    </message>
    <message>
        <source>role-manipulation</source>
        <translation>角色操纵</translation>
    </message>
    <message>
        <source>system-override</source>
        <translation>覆盖系统指令</translation>
    </message>
    <message>
        <source>data-exfiltration</source>
        <translation>数据外泄</translation>
    </message>
    <message>
        <source>tool-exfiltration</source>
        <translation>经工具外泄</translation>
    </message>
    <message>
        <source>hate</source>
        <translation>仇恨</translation>
    </message>
    <message>
        <source>hate/threatening</source>
        <translation>仇恨/威胁</translation>
    </message>
    <message>
        <source>harassment</source>
        <translation>骚扰</translation>
    </message>
    <message>
        <source>harassment/threatening</source>
        <translation>骚扰/威胁</translation>
    </message>
    <message>
        <source>self-harm</source>
        <translation>自我伤害</translation>
    </message>
    <message>
        <source>self-harm/intent</source>
        <translation>自我伤害/意图</translation>
    </message>
    <message>
        <source>self-harm/instructions</source>
        <translation>自我伤害/方法指导</translation>
    </message>
    <message>
        <source>sexual</source>
        <translation>色情</translation>
    </message>
    <message>
        <source>sexual/minors</source>
        <translation>色情/涉及未成年人</translation>
    </message>
    <message>
        <source>violence</source>
        <translation>暴力</translation>
    </message>
    <message>
        <source>violence/graphic</source>
        <translation>暴力/血腥画面</translation>
    </message>
</context>
<context>
    <name>OptionsForm</name>
    <message>
        <source>Required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>default: {value}</source>
        <translation>默认：{value}</translation>
    </message>
    <message>
        <source>Enter a whole number</source>
        <translation>请输入整数</translation>
    </message>
    <message>
        <source>Enter a number</source>
        <translation>请输入数字</translation>
    </message>
    <message>
        <source>One item per line</source>
        <translation>每行一项</translation>
    </message>
    <message>
        <source>Not valid JSON: {error}</source>
        <translation>不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <source>A folder on this computer</source>
        <translation>本机上的文件夹</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Choose the folder</source>
        <translation>选择文件夹</translation>
    </message>
    <message>
        <source>Key…</source>
        <translation>密钥…</translation>
    </message>
    <message>
        <source>Save the API key for this endpoint</source>
        <translation>保存此端点的 API 密钥</translation>
    </message>
    <message>
        <source>Save this service&apos;s API key in the system keyring. It is sent to this endpoint only, never stored in the design.</source>
        <translation>将此服务的 API 密钥保存到系统密钥环。它只会发送到此端点，绝不会保存在设计中。</translation>
    </message>
    <message>
        <source>Key for this endpoint: {key}</source>
        <translation>此端点的密钥：{key}</translation>
    </message>
    <message>
        <source>No key saved for this endpoint</source>
        <translation>此端点尚未保存密钥</translation>
    </message>
    <message>
        <source>The model&apos;s labels: {labels}</source>
        <translation>模型的标签：{labels}</translation>
    </message>
    <message>
        <source>{low} to {high}</source>
        <translation>{low} 至 {high}</translation>
    </message>
    <message>
        <source>at least {low}</source>
        <translation>至少 {low}</translation>
    </message>
    <message>
        <source>at most {high}</source>
        <translation>至多 {high}</translation>
    </message>
    <message>
        <source>Select a processor in a chain to edit its options.</source>
        <translation>在链中选择一个处理器以编辑其选项。</translation>
    </message>
    <message>
        <source>Needs a model to judge with (set its model option).</source>
        <translation>需要一个用于判定的模型（请设置其 model 选项）。</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>This processor has no options.</source>
        <translation>此处理器没有选项。</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>The API key to send to {host} (saved in the system keyring for this endpoint only; empty removes it):</source>
        <translation>要发送到 {host} 的 API 密钥（仅为此端点保存在系统密钥环中；留空则删除）：</translation>
    </message>
    <message>
        <source>{name} error</source>
        <translation>{name} 错误</translation>
    </message>
    <message>
        <source>item {number}</source>
        <translation>第 {number} 项</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>: </source>
        <translation>：</translation>
    </message>
</context>
<context>
    <name>Outcome</name>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已修改</translation>
    </message>
    <message>
        <source>held</source>
        <translation>暂扣</translation>
    </message>
    <message>
        <source>dropped</source>
        <translation>已丢弃</translation>
    </message>
    <message>
        <source>aborted</source>
        <translation>已中止</translation>
    </message>
    <message>
        <source>raised</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>tripwire</source>
        <translation>拦截</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
</context>
<context>
    <name>Palette</name>
    <message>
        <source>Hooks: {hooks}</source>
        <translation>钩子：{hooks}</translation>
    </message>
    <message>
        <source>Needs a model to judge with.</source>
        <translation>需要一个用于判定的模型。</translation>
    </message>
    <message>
        <source>Search processors</source>
        <translation>搜索处理器</translation>
    </message>
    <message>
        <source>Processor types</source>
        <translation>处理器类型</translation>
    </message>
    <message>
        <source>Add to Chain</source>
        <translation>添加到链</translation>
    </message>
    <message>
        <source>No processor matches “{text}”.</source>
        <translation>没有与“{text}”匹配的处理器。</translation>
    </message>
</context>
<context>
    <name>ProblemText</name>
    <message>
        <source>invalid regular expression {pattern!r}: {error}</source>
        <translation>无效的正则表达式 {pattern!r}：{error}</translation>
    </message>
    <message>
        <source>invalid regular expression {pattern!r} with flags {flags!r}: {error}</source>
        <translation>无效的正则表达式 {pattern!r}（标志 {flags!r}）：{error}</translation>
    </message>
    <message>
        <source>the regular expression {pattern!r} can backtrack catastrophically: a repeated part can match the same text in more than one way</source>
        <translation>正则表达式 {pattern!r} 可能发生灾难性回溯：其中重复的部分能以不止一种方式匹配同一段文本</translation>
    </message>
    <message>
        <source>pattern {index}: {error}</source>
        <translation>第 {index} 个模式：{error}</translation>
    </message>
    <message>
        <source>matcher {index}: {error}</source>
        <translation>第 {index} 个匹配规则：{error}</translation>
    </message>
    <message>
        <source>matcher {index} is not a valid regular expression ({pattern!r}): {error}</source>
        <translation>第 {index} 个匹配规则不是有效的正则表达式（{pattern!r}）：{error}</translation>
    </message>
    <message>
        <source>pattern {index} ({pattern!r}) does not compile: {error}</source>
        <translation>第 {index} 个模式（{pattern!r}）无法编译：{error}</translation>
    </message>
    <message>
        <source>{type} does not declare its options: give its class an Options model (pydantic) or an options_schema (a JSON schema) to set them in the studio</source>
        <translation>{type} 没有声明它的选项：在它的类上声明 Options 模型（pydantic）或 options_schema（JSON 模式），即可在工作室中设置这些选项</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; ({launch}) did not start within {seconds:g} s</source>
        <translation>MCP 服务器“{name}”（{launch}）未在 {seconds:g} 秒内启动</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; ({launch}) could not be started: {reason}</source>
        <translation>MCP 服务器“{name}”（{launch}）无法启动：{reason}</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; does not offer the tool(s) {tools} that the design enables</source>
        <translation>MCP 服务器“{name}”不提供设计所启用的工具 {tools}</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; stopped: {reason}</source>
        <translation>MCP 服务器“{name}”已停止：{reason}</translation>
    </message>
    <message>
        <source>a stdio MCP server needs a command</source>
        <translation>stdio MCP 服务器需要一个命令</translation>
    </message>
    <message>
        <source>an http MCP server needs an http:// or https:// URL</source>
        <translation>http MCP 服务器需要 http:// 或 https:// 网址</translation>
    </message>
    <message>
        <source>the URL carries a credential; credentials belong in the keyring, not a design</source>
        <translation>网址中带有凭据；凭据应保存在系统密钥环中，而不是设计里</translation>
    </message>
    <message>
        <source>{field}: credentials must not be saved in a design, where anyone it is shared with reads them; the studio reads them from the keyring</source>
        <translation>{field}：凭据不得保存在设计中，否则任何拿到该设计的人都能读到；工作室会从系统密钥环读取</translation>
    </message>
    <message>
        <source>{where}: {problem}</source>
        <translation>{where}：{problem}</translation>
    </message>
    <message>
        <source>expected a JSON object, got {kind}</source>
        <translation>应为 JSON 对象，实际为 {kind}</translation>
    </message>
    <message>
        <source>not valid JSON: {error}</source>
        <translation>不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <source>a thread with id {id!r} already exists</source>
        <translation>ID 为 {id!r} 的对话已存在</translation>
    </message>
    <message>
        <source>{id!r} is already stored in another thread</source>
        <translation>{id!r} 已保存在另一个对话中</translation>
    </message>
    <message>
        <source>{id!r} is also the id of {other}</source>
        <translation>{id!r} 也是 {other} 的 ID</translation>
    </message>
    <message>
        <source>{id!r} is not the thread&apos;s id {thread!r}</source>
        <translation>{id!r} 不是该对话的 ID {thread!r}</translation>
    </message>
    <message>
        <source>must be 1 to {max} characters</source>
        <translation>长度必须为 1 到 {max} 个字符</translation>
    </message>
    <message>
        <source>{id!r} is not an id</source>
        <translation>{id!r} 不是有效的 ID</translation>
    </message>
    <message>
        <source>{id!r} contains {character}, which an id may not contain</source>
        <translation>{id!r} 包含{character}，ID 中不能包含它</translation>
    </message>
    <message>
        <source>a {character!r}</source>
        <translation>字符 {character!r}</translation>
    </message>
    <message>
        <source>a line separator</source>
        <translation>行分隔符</translation>
    </message>
    <message>
        <source>a paragraph separator</source>
        <translation>段落分隔符</translation>
    </message>
    <message>
        <source>a lone surrogate ({code})</source>
        <translation>孤立的代理字符（{code}）</translation>
    </message>
    <message>
        <source>a control character ({code})</source>
        <translation>控制字符（{code}）</translation>
    </message>
    <message>
        <source>unknown part type {type!r} (expected text, reasoning, file, source, step-start, error, tool-invocation or a data-* type)</source>
        <translation>未知的部分类型 {type!r}（应为 text、reasoning、file、source、step-start、error、tool-invocation 或 data-* 类型）</translation>
    </message>
    <message>
        <source>expected a list of runs, got {kind}</source>
        <translation>应为运行列表，实际为 {kind}</translation>
    </message>
    <message>
        <source>{id!r} appears twice</source>
        <translation>{id!r} 出现了两次</translation>
    </message>
    <message>
        <source>run {id!r} is already stored</source>
        <translation>运行 {id!r} 已保存</translation>
    </message>
    <message>
        <source>not base64: {error}</source>
        <translation>不是 base64 编码：{error}</translation>
    </message>
    <message>
        <source>not a readable recording: {error}</source>
        <translation>不是可读取的录制：{error}</translation>
    </message>
    <message>
        <source>larger than {size} MB decompressed</source>
        <translation>解压后超过 {size} MB</translation>
    </message>
    <message>
        <source>Not valid JSON: {error}</source>
        <translation>不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <source>not valid JSON ({json_fault} at column {column})</source>
        <translation>不是有效的 JSON（第 {column} 列：{json_fault}）</translation>
    </message>
    <message>
        <source>&apos;text&apos; is missing or empty</source>
        <translation>&apos;text&apos; 缺失或为空</translation>
    </message>
    <message>
        <source>&apos;id&apos; must be a non-empty string</source>
        <translation>&apos;id&apos; 必须是非空字符串</translation>
    </message>
    <message>
        <source>&apos;label&apos; must be &apos;attack&apos; or &apos;benign&apos;, got {got!r}</source>
        <translation>&apos;label&apos; 必须是 &apos;attack&apos; 或 &apos;benign&apos;，实际为 {got!r}</translation>
    </message>
    <message>
        <source>&apos;expect&apos; must be blocked, passed, modified or a processor id, got {got!r}</source>
        <translation>&apos;expect&apos; 必须是 blocked、passed、modified 或处理器 ID，实际为 {got!r}</translation>
    </message>
    <message>
        <source>a case must be an object, got {kind}</source>
        <translation>用例必须是对象，实际为 {kind}</translation>
    </message>
    <message>
        <source>&apos;{name}&apos; must be a string, got {kind}</source>
        <translation>&apos;{name}&apos; 必须是字符串，实际为 {kind}</translation>
    </message>
    <message>
        <source>id {id!r} is already used on line {line}</source>
        <translation>ID {id!r} 已在第 {line} 行使用</translation>
    </message>
    <message>
        <source>id {id!r} is already used in {place}</source>
        <translation>ID {id!r} 已在 {place} 中使用</translation>
    </message>
    <message>
        <source>unknown corpus format {suffix!r} (use {known})</source>
        <translation>未知的语料格式 {suffix!r}（请使用 {known}）</translation>
    </message>
    <message>
        <source>cannot read it ({error})</source>
        <translation>无法读取（{error}）</translation>
    </message>
    <message>
        <source>the first row must name a text column ({keys})</source>
        <translation>第一行必须指明文本列（{keys}）</translation>
    </message>
    <message>
        <source>unknown processor type {type!r}; known: {known}</source>
        <translation>未知的处理器类型 {type!r}；可用类型：{known}</translation>
    </message>
    <message>
        <source>{messages} messages, {system} system; last: {last!r}</source>
        <translation>{messages} 条消息，{system} 条系统消息；最后一条：{last!r}</translation>
    </message>
    <message>
        <source>{messages} messages, {system} system</source>
        <translation>{messages} 条消息，{system} 条系统消息</translation>
    </message>
    <message>
        <source>{server} (port {port}): not running</source>
        <translation>{server}（端口 {port}）：未运行</translation>
    </message>
    <message>
        <source>{server} (port {port}): no answer within {time}</source>
        <translation>{server}（端口 {port}）：{time}内无应答</translation>
    </message>
    <message>
        <source>Tripwire triggered by {processor}</source>
        <translation>处理器 {processor} 触发了拦截</translation>
    </message>
    <message>
        <source>unknown field</source>
        <translation>未知字段</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>nested more than {depth} levels deep</source>
        <translation>嵌套超过 {depth} 层</translation>
    </message>
    <message>
        <source>not a finite number (NaN, Infinity and numbers too large for a float are not JSON values)</source>
        <translation>不是有限数字（NaN、Infinity 以及超出浮点范围的数字都不是 JSON 值）</translation>
    </message>
    <message>
        <source>missing ), unterminated subpattern</source>
        <translation>缺少 )，子模式未闭合</translation>
    </message>
    <message>
        <source>missing )</source>
        <translation>缺少 )</translation>
    </message>
    <message>
        <source>unbalanced parenthesis</source>
        <translation>括号不配对</translation>
    </message>
    <message>
        <source>nothing to repeat</source>
        <translation>重复符号前没有可重复的内容</translation>
    </message>
    <message>
        <source>multiple repeat</source>
        <translation>有多重重复符号</translation>
    </message>
    <message>
        <source>unterminated character set</source>
        <translation>字符集未闭合</translation>
    </message>
    <message>
        <source>min repeat greater than max repeat</source>
        <translation>最小重复次数大于最大重复次数</translation>
    </message>
    <message>
        <source>look-behind requires fixed-width pattern</source>
        <translation>后行断言需要固定宽度的模式</translation>
    </message>
    <message>
        <source>a value was expected</source>
        <translation>此处应为一个值</translation>
    </message>
    <message>
        <source>a name in double quotes was expected</source>
        <translation>此处应为带双引号的名称</translation>
    </message>
    <message>
        <source>&apos;,&apos; was expected</source>
        <translation>此处应为 &apos;,&apos;</translation>
    </message>
    <message>
        <source>&apos;:&apos; was expected</source>
        <translation>此处应为 &apos;:&apos;</translation>
    </message>
    <message>
        <source>a text is not closed</source>
        <translation>字符串没有闭合</translation>
    </message>
    <message>
        <source>more data after the JSON value</source>
        <translation>JSON 值之后还有多余内容</translation>
    </message>
    <message>
        <source>a control character inside a text</source>
        <translation>字符串中有控制字符</translation>
    </message>
    <message>
        <source>an invalid escape</source>
        <translation>无效的转义</translation>
    </message>
    <message>
        <source>{fault} at position {position}</source>
        <translation>位置 {position} 处：{fault}</translation>
    </message>
    <message>
        <source>{fault}</source>
        <translation>{fault}</translation>
    </message>
    <message>
        <source>{fault} at line {line}, column {column}</source>
        <translation>第 {line} 行第 {column} 列：{fault}</translation>
    </message>
    <message>
        <source>bad escape {escape}</source>
        <translation>转义 {escape} 无效</translation>
    </message>
</context>
<context>
    <name>ReplayController</name>
    <message>
        <source>A replay or fuzzing is still running: wait or cancel it.</source>
        <translation>重放或模糊测试仍在进行：请等待或取消。</translation>
    </message>
    <message>
        <source>No run {0} in the store.</source>
        <translation>存储中没有运行 {0}。</translation>
    </message>
    <message>
        <source>This run has no recording (it was made before runs were recorded).</source>
        <translation>此运行没有录制（它产生于开始录制运行之前）。</translation>
    </message>
    <message>
        <source>This run&apos;s message was not kept, so it cannot be replayed.</source>
        <translation>此运行的消息未被保存，因此无法重放。</translation>
    </message>
    <message>
        <source>Replay stopped.</source>
        <translation>重放已停止。</translation>
    </message>
    <message>
        <source>This thread has no runs yet.</source>
        <translation>此对话还没有运行。</translation>
    </message>
    <message>
        <source>Fuzzing cancelled.</source>
        <translation>模糊测试已取消。</translation>
    </message>
</context>
<context>
    <name>ReplayView</name>
    <message>
        <source>Replay of a run — Processor Studio</source>
        <translation>运行重放 — Processor Studio</translation>
    </message>
    <message>
        <source>Replaying the recorded run through the current chain…</source>
        <translation>正在用当前处理链重放录制的运行…</translation>
    </message>
    <message>
        <source>Stop the replay</source>
        <translation>停止重放</translation>
    </message>
    <message>
        <source>Original chain</source>
        <translation>原处理链</translation>
    </message>
    <message>
        <source>Current chain</source>
        <translation>当前处理链</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>Original</source>
        <translation>原来</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>Fuzz chunk boundaries</source>
        <translation>模糊测试数据块边界</translation>
    </message>
    <message>
        <source>Re-cut the recorded reply many ways and list every output processor whose verdict changes</source>
        <translation>以多种方式重新切分录制的回复，并列出判定随之改变的每个输出处理器</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Export as regression test…</source>
        <translation>导出为回归测试…</translation>
    </message>
    <message>
        <source>⚠ Tool {0} was called with other arguments: recorded {1}, now {2} (given the recorded result)</source>
        <translation>⚠ 工具 {0} 的调用参数已改变：录制时为 {1}，现在为 {2}（仍返回录制的结果）</translation>
    </message>
    <message>
        <source>The conversation diverged at step {0}: the chain now asks the model something the recording does not have, so the replay stopped there.</source>
        <translation>对话在第 {0} 步出现分歧：处理链现在向模型提出的请求不在录制中，因此重放在此停止。</translation>
    </message>
    <message>
        <source>not in the chain</source>
        <translation>不在处理链中</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>Step {0}: what the recording was asked (-) and what the chain asks now (+)</source>
        <translation>第 {0} 步：录制时的请求（-）与处理链现在的请求（+）</translation>
    </message>
    <message>
        <source>Step {0}: what the chain asks now (+); the recording has no request to compare it with</source>
        <translation>第 {0} 步：处理链现在的请求（+）；录制中没有可与之比较的请求</translation>
    </message>
    <message>
        <source>(the messages are the same)</source>
        <translation>（消息相同）</translation>
    </message>
    <message>
        <source>… and %n more line(s)</source>
        <translation>……另有 %n 行</translation>
    </message>
    <message>
        <source>held</source>
        <translation>暂扣</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已修改</translation>
    </message>
    <message>
        <source>dropped</source>
        <translation>已丢弃</translation>
    </message>
    <message>
        <source>raised</source>
        <translation>出错</translation>
    </message>
    <message>
        <source>aborted</source>
        <translation>已中止</translation>
    </message>
    <message>
        <source>not called</source>
        <translation>未调用</translation>
    </message>
    <message>
        <source>chunks changed: {0}</source>
        <translation>修改的数据块：{0}</translation>
    </message>
    <message>
        <source>chunks dropped: {0}</source>
        <translation>丢弃的数据块：{0}</translation>
    </message>
    <message>
        <source>not reached (the run stopped at {0})</source>
        <translation>未执行到（运行在 {0} 处停止）</translation>
    </message>
    <message>
        <source>Tripwire</source>
        <translation>拦截</translation>
    </message>
    <message>
        <source>Replayed with no model call: the current chain gives the same result as the original.</source>
        <translation>已重放，未调用模型：当前处理链的结果与原来相同。</translation>
    </message>
    <message>
        <source>the final text differs</source>
        <translation>最终文本不同</translation>
    </message>
    <message>
        <source>the tripwire differs</source>
        <translation>拦截不同</translation>
    </message>
    <message>
        <source>{0} processor(s) did something else: {1}</source>
        <translation>{0} 个处理器的行为不同：{1}</translation>
    </message>
    <message>
        <source>Export again to {0}</source>
        <translation>再次导出到 {0}</translation>
    </message>
    <message>
        <source>Rewrite {0} with this replay and the design as it is now (the file holds a frozen copy of the design from its last export)</source>
        <translation>用这次重放和当前的设计重写 {0}（该文件保存的是上次导出时设计的冻结副本）</translation>
    </message>
    <message>
        <source>Continued with the live model from step {0}: the current chain gives the same result as the original.</source>
        <translation>已从第 {0} 步起改用实时模型继续：当前处理链的结果与原来相同。</translation>
    </message>
    <message>
        <source>Continued with the live model from step {0}: {1}.</source>
        <translation>已从第 {0} 步起改用实时模型继续：{1}。</translation>
    </message>
    <message>
        <source>Replayed with no model call: {0}.</source>
        <translation>已重放，未调用模型：{0}。</translation>
    </message>
    <message>
        <source>The run could not be replayed: {0}</source>
        <translation>无法重放此运行：{0}</translation>
    </message>
    <message>
        <source>Continuing with the live model from the step that diverged…</source>
        <translation>正在从出现分歧的步骤起改用实时模型继续…</translation>
    </message>
    <message>
        <source>No output processor changes its verdict with the cut ({0} checked).</source>
        <translation>没有输出处理器的判定随切分而改变（已检查 {0} 个）。</translation>
    </message>
    <message>
        <source>{0} changes with the cut; the smallest cut found: {1} — {2} instead of {3}</source>
        <translation>{0} 的结果随切分而改变；找到的最小切分：{1} — 得到 {2}，而不是 {3}</translation>
    </message>
    <message>
        <source>a tripwire ({0}: {1})</source>
        <translation>拦截（{0}：{1}）</translation>
    </message>
    <message>
        <source>the text {0}</source>
        <translation>文本 {0}</translation>
    </message>
</context>
<context>
    <name>RunController</name>
    <message>
        <source>The run failed: {kind}: {error}</source>
        <translation>运行失败：{kind}：{error}</translation>
    </message>
    <message>
        <source>The run failed: {kind}</source>
        <translation>运行失败：{kind}</translation>
    </message>
</context>
<context>
    <name>RuntimeText</name>
    <message>
        <source>{count} chunks</source>
        <translation>{count} 个数据块</translation>
    </message>
    <message>
        <source>{changed} changed, {held} held, {dropped} dropped</source>
        <translation>修改 {changed} 个，暂扣 {held} 个，丢弃 {dropped} 个</translation>
    </message>
    <message>
        <source>Input should be greater than or equal to {limit}</source>
        <translation>应大于或等于 {limit}</translation>
    </message>
    <message>
        <source>Input should be greater than {limit}</source>
        <translation>应大于 {limit}</translation>
    </message>
    <message>
        <source>Input should be less than or equal to {limit}</source>
        <translation>应小于或等于 {limit}</translation>
    </message>
    <message>
        <source>Input should be less than {limit}</source>
        <translation>应小于 {limit}</translation>
    </message>
    <message>
        <source>Input should be a whole number</source>
        <translation>应为整数</translation>
    </message>
    <message>
        <source>Input should be a number</source>
        <translation>应为数字</translation>
    </message>
    <message>
        <source>Input should be true or false</source>
        <translation>应为是或否（true 或 false）</translation>
    </message>
    <message>
        <source>Input should be text</source>
        <translation>应为文字</translation>
    </message>
    <message>
        <source>Text should match the pattern &apos;{pattern}&apos;</source>
        <translation>文字应符合模式 &apos;{pattern}&apos;</translation>
    </message>
    <message>
        <source>Input should be a list</source>
        <translation>应为列表</translation>
    </message>
    <message>
        <source>Input should be a JSON object</source>
        <translation>应为 JSON 对象</translation>
    </message>
    <message>
        <source>Input should be {choices}</source>
        <translation>应为 {choices} 之一</translation>
    </message>
    <message>
        <source>Field required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>Not an option of this processor</source>
        <translation>不是此处理器的选项</translation>
    </message>
    <message>
        <source>List should have at least {count} item(s)</source>
        <translation>列表至少应有 {count} 项</translation>
    </message>
    <message>
        <source>Text should have at least {count} character(s)</source>
        <translation>文字至少应有 {count} 个字符</translation>
    </message>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Paste the API key</source>
        <translation>粘贴 API 密钥</translation>
    </message>
    <message>
        <source>&amp;Forget allowed servers</source>
        <translation>忘记已允许的服务器(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Save key</source>
        <translation>保存密钥(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <source>e.g. http://localhost:11434 for Ollama (optional)</source>
        <translation>如 Ollama 的 http://localhost:11434（可选）</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <source>Find &amp;local servers</source>
        <translation>查找本地服务器(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Use</source>
        <translation>使用(&amp;U)</translation>
    </message>
    <message>
        <source>Set the design&apos;s model and API base to this local server&apos;s model</source>
        <translation>将设计的模型和 API 地址设为此本地服务器的模型</translation>
    </message>
    <message>
        <source>Keys are stored in your system keyring.</source>
        <translation>密钥保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>No system keyring was found: keys are kept for this session only (never written to disk). You can also set the provider&apos;s environment variable, e.g. OPENAI_API_KEY.</source>
        <translation>未找到系统密钥环：密钥仅在本次会话中保留（绝不写入磁盘）。你也可以设置提供方的环境变量，如 OPENAI_API_KEY。</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>提供方</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>For endpoint</source>
        <translation>用于端点</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>API base</source>
        <translation>API 地址</translation>
    </message>
    <message>
        <source>Local servers</source>
        <translation>本地服务器</translation>
    </message>
    <message>
        <source>{host} (the provider&apos;s own); or the base URL this key is for</source>
        <translation>{host}（提供方自己的）；或此密钥所用的基础 URL</translation>
    </message>
    <message>
        <source>The base URL this key is for</source>
        <translation>此密钥所用的基础 URL</translation>
    </message>
    <message>
        <source>its default</source>
        <translation>其默认端点</translation>
    </message>
    <message>
        <source>Stored: {key} — sent only to {host}</source>
        <translation>已保存：{key}——只发送到 {host}</translation>
    </message>
    <message>
        <source>No key stored for this provider.</source>
        <translation>此提供方没有已保存的密钥。</translation>
    </message>
    <message>
        <source>Also allowed: {hosts}</source>
        <translation>另外允许：{hosts}</translation>
    </message>
    <message>
        <source>Not saved — the endpoint: {error}</source>
        <translation>未保存——端点有误：{error}</translation>
    </message>
    <message>
        <source>Saved in the system keyring.</source>
        <translation>已保存到系统密钥环。</translation>
    </message>
    <message>
        <source>Saved for this session only.</source>
        <translation>仅为本次会话保存。</translation>
    </message>
    <message>
        <source>Key removed.</source>
        <translation>密钥已移除。</translation>
    </message>
    <message>
        <source>Remove the API key</source>
        <translation>移除 API 密钥</translation>
    </message>
    <message>
        <source>Remove your {provider} API key from this computer? You would have to paste it again.</source>
        <translation>从这台电脑上移除你的 {provider} API 密钥？之后需要重新粘贴。</translation>
    </message>
    <message>
        <source>Your {provider} key may now be sent to {host}.</source>
        <translation>你的 {provider} 密钥现在可以发送到 {host}。</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>正在测试……</translation>
    </message>
    <message>
        <source>API base: {error}</source>
        <translation>API 地址：{error}</translation>
    </message>
    <message>
        <source>Failed — {kind}: {error}</source>
        <translation>失败——{kind}：{error}</translation>
    </message>
    <message>
        <source> (your {provider} key was not sent: it is for {saved_for}, not {host})</source>
        <translation>（未发送你的 {provider} 密钥：它用于 {saved_for}，而不是 {host}）</translation>
    </message>
    <message>
        <source>&amp;Allow my {provider} key for {host}</source>
        <translation>允许向 {host} 发送我的 {provider} 密钥(&amp;A)</translation>
    </message>
    <message>
        <source>Looking for local servers…</source>
        <translation>正在查找本地服务器……</translation>
    </message>
    <message>
        <source>The search failed — {kind}: {error}</source>
        <translation>查找失败——{kind}：{error}</translation>
    </message>
    <message>
        <source>{server} ({host}): running, no model loaded</source>
        <translation>{server}（{host}）：正在运行，未加载模型</translation>
    </message>
    <message>
        <source>Found %n model(s) on local servers.</source>
        <translation>在本地服务器上找到 %n 个模型。</translation>
    </message>
    <message>
        <source>No local model server answered.</source>
        <translation>没有本地模型服务器应答。</translation>
    </message>
    <message>
        <source>Not used — {problem}</source>
        <translation>未使用——{problem}</translation>
    </message>
    <message>
        <source>Use local model {model}</source>
        <translation>使用本地模型 {model}</translation>
    </message>
    <message>
        <source>The design now uses {model} at {host} (no API key is sent there unless you allow one).</source>
        <translation>设计现在使用 {host} 上的 {model}（除非你允许，否则不会向那里发送 API 密钥）。</translation>
    </message>
</context>
<context>
    <name>ThreadReplayView</name>
    <message>
        <source>Replay of a thread — Processor Studio</source>
        <translation>对话重放 — Processor Studio</translation>
    </message>
    <message>
        <source>Replaying the thread&apos;s runs through the current chain…</source>
        <translation>正在用当前处理链重放此对话的各次运行…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>重放结果</translation>
    </message>
    <message>
        <source>Replayed {0} of {1} runs…</source>
        <translation>已重放 {0}/{1} 次运行…</translation>
    </message>
    <message>
        <source>not replayed: {0}</source>
        <translation>未重放：{0}</translation>
    </message>
    <message>
        <source>diverged at step {0}</source>
        <translation>在第 {0} 步出现分歧</translation>
    </message>
    <message>
        <source>same result</source>
        <translation>结果相同</translation>
    </message>
    <message>
        <source>The conversation diverged at run {0}, step {1}: the chain now asks the model something the recording does not have, so the replay stopped there.</source>
        <translation>对话在第 {0} 次运行的第 {1} 步出现分歧：处理链现在向模型提出的请求不在录制中，因此重放在此停止。</translation>
    </message>
    <message>
        <source>Cancelled after {0} of {1} runs.</source>
        <translation>已取消：完成 {0}/{1} 次运行。</translation>
    </message>
    <message>
        <source>Replayed {0} of {1} runs, continued with the live model from run {2}, step {3}: {4} differ.</source>
        <translation>已重放 {0}/{1} 次运行，从第 {2} 次运行第 {3} 步起改用实时模型继续：{4} 次结果不同。</translation>
    </message>
    <message>
        <source>Replayed {0} of {1} runs with no model call: {2} differ.</source>
        <translation>已重放 {0}/{1} 次运行，未调用模型：{2} 次结果不同。</translation>
    </message>
    <message>
        <source>Replayed {0} of {1} runs with no model call: the current chain gives the same results.</source>
        <translation>已重放 {0}/{1} 次运行，未调用模型：当前处理链的结果与原来相同。</translation>
    </message>
    <message>
        <source>The thread could not be replayed: {0}</source>
        <translation>无法重放此对话：{0}</translation>
    </message>
    <message>
        <source>Continuing with the live model from the run that diverged…</source>
        <translation>正在从出现分歧的运行起改用实时模型继续…</translation>
    </message>
</context>
<context>
    <name>ThreadsController</name>
    <message>
        <source>Could not load the threads: {error}</source>
        <translation>无法加载对话：{error}</translation>
    </message>
    <message>
        <source>Could not create a thread: {error}</source>
        <translation>无法创建对话：{error}</translation>
    </message>
    <message>
        <source>Could not rename the thread: {error}</source>
        <translation>无法重命名对话：{error}</translation>
    </message>
    <message>
        <source>Could not delete the thread: {error}</source>
        <translation>无法删除对话：{error}</translation>
    </message>
    <message>
        <source>Could not restore the thread: {error}</source>
        <translation>无法恢复对话：{error}</translation>
    </message>
    <message>
        <source>Could not empty the trash: {error}</source>
        <translation>无法清空回收站：{error}</translation>
    </message>
    <message>
        <source>Could not read the trash: {error}</source>
        <translation>无法读取回收站：{error}</translation>
    </message>
</context>
<context>
    <name>ThreadsView</name>
    <message>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>Last activity {when}</source>
        <translation>最近活动 {when}</translation>
    </message>
    <message>
        <source>id {id}</source>
        <translation>ID {id}</translation>
    </message>
    <message>
        <source>Search threads</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>New conversation (Ctrl+N)</source>
        <translation>新建对话（Ctrl+N）</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Rename the selected conversation (F2)</source>
        <translation>重命名所选对话（F2）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected conversation (Del)</source>
        <translation>删除所选对话（Del）</translation>
    </message>
    <message>
        <source>Undo delete</source>
        <translation>撤销删除</translation>
    </message>
    <message>
        <source>New title, then Enter (Esc cancels)</source>
        <translation>输入新标题后按 Enter（Esc 取消）</translation>
    </message>
    <message>
        <source>Bring back “{title}” (deleted conversations are kept {days} days)</source>
        <translation>恢复“{title}”（已删除的对话保留 {days} 天）</translation>
    </message>
    <message>
        <source>Replay the whole thread through the current chain</source>
        <translation>用当前处理链重放整个对话</translation>
    </message>
    <message>
        <source>Export its regression test again (current design)</source>
        <translation>再次导出其回归测试（当前设计）</translation>
    </message>
    <message>
        <source>Replay the exported run through the current chain and rewrite {0}</source>
        <translation>用当前处理链重放已导出的运行，并重写 {0}</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages and traces? It stays in the trash for {days} days: “Undo delete” brings it back.</source>
        <translation>删除“{title}”及其全部消息和跟踪记录？它会在回收站中保留 {days} 天：点击“撤销删除”即可恢复。</translation>
    </message>
</context>
<context>
    <name>TracesSettings</name>
    <message>
        <source>Send traces to an &amp;OpenTelemetry backend</source>
        <translation>将跟踪发送到 &amp;OpenTelemetry 后端</translation>
    </message>
    <message>
        <source>The OTLP/HTTP traces URL of a collector or backend</source>
        <translation>收集器或后端的 OTLP/HTTP 跟踪地址</translation>
    </message>
    <message>
        <source>Include message &amp;text in traces (redacted)</source>
        <translation>在跟踪中包含消息文本（已脱敏）(&amp;T)</translation>
    </message>
    <message>
        <source>OTEL_SDK_DISABLED is set: no traces are sent.</source>
        <translation>已设置 OTEL_SDK_DISABLED：不发送任何跟踪。</translation>
    </message>
    <message>
        <source>The OTEL_* environment variables send the traces; they take precedence over this setting.</source>
        <translation>跟踪由 OTEL_* 环境变量发送；它们优先于此设置。</translation>
    </message>
    <message>
        <source>Traces need the OpenTelemetry packages: pip install &apos;processor-studio[otel]&apos;.</source>
        <translation>发送跟踪需要 OpenTelemetry 软件包：pip install &apos;processor-studio[otel]&apos;。</translation>
    </message>
    <message>
        <source>{variable} is set: it decides whether message text is sent.</source>
        <translation>已设置 {variable}：由它决定是否发送消息文本。</translation>
    </message>
    <message>
        <source>On: each processor&apos;s before/after summary (it quotes the latest message, up to 80 characters), guardrail reasons and error messages are sent too, with what a guardrail masked, dropped or blocked sent as [REDACTED].</source>
        <translation>开启：还会发送每个处理器的前后摘要（引用最新一条消息，最多 80 个字符）、护栏原因和错误信息，护栏遮盖、丢弃或拦截的内容以 [REDACTED] 代替。</translation>
    </message>
    <message>
        <source>Off: traces carry names, outcomes, times and token counts — no message text, no guardrail reason, no error message.</source>
        <translation>关闭：跟踪只包含名称、结果、时间和令牌数——不含消息文本、护栏原因或错误信息。</translation>
    </message>
    <message>
        <source>Each run is sent as spans over OTLP/HTTP from the next run on (Jaeger, Grafana Tempo, Langfuse, Arize Phoenix).</source>
        <translation>从下一次运行起，每次运行都以 span 形式通过 OTLP/HTTP 发送（Jaeger、Grafana Tempo、Langfuse、Arize Phoenix）。</translation>
    </message>
    <message>
        <source>Not saved: the endpoint must be an http:// or https:// URL.</source>
        <translation>未保存：端点必须是 http:// 或 https:// 地址。</translation>
    </message>
</context>
<context>
    <name>UndoCommands</name>
    <message>
        <source>agent name</source>
        <translation>智能体名称</translation>
    </message>
    <message>
        <source>instructions</source>
        <translation>指令</translation>
    </message>
    <message>
        <source>tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <source>processor retries</source>
        <translation>处理器重试次数</translation>
    </message>
    <message>
        <source>maximum steps</source>
        <translation>最大步数</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>API base</source>
        <translation>API 地址</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>maximum tokens</source>
        <translation>最大令牌数</translation>
    </message>
    <message>
        <source>top p</source>
        <translation>核采样 top p</translation>
    </message>
    <message>
        <source>model settings</source>
        <translation>模型设置</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入链</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出链</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误链</translation>
    </message>
    <message>
        <source>Add {processor} to {lane}</source>
        <translation>将 {processor} 添加到{lane}</translation>
    </message>
    <message>
        <source>Remove {processor} from {lane}</source>
        <translation>从{lane}移除 {processor}</translation>
    </message>
    <message>
        <source>Move {processor}</source>
        <translation>移动 {processor}</translation>
    </message>
    <message>
        <source>Move {processor} to {lane}</source>
        <translation>将 {processor} 移到{lane}</translation>
    </message>
    <message>
        <source>Replace design</source>
        <translation>替换设计</translation>
    </message>
    <message>
        <source>Enable {processor}</source>
        <translation>启用 {processor}</translation>
    </message>
    <message>
        <source>Disable {processor}</source>
        <translation>停用 {processor}</translation>
    </message>
    <message>
        <source>Change {field} of {processor}</source>
        <translation>更改 {processor} 的 {field}</translation>
    </message>
    <message>
        <source>Change options of {processor}</source>
        <translation>更改 {processor} 的选项</translation>
    </message>
    <message>
        <source>Change {setting}</source>
        <translation>更改{setting}</translation>
    </message>
</context>
<context>
    <name>UnmaskedExport</name>
    <message>
        <source>e-mail addresses</source>
        <translation>电子邮件</translation>
    </message>
    <message>
        <source>phone numbers</source>
        <translation>电话号码</translation>
    </message>
    <message>
        <source>card numbers</source>
        <translation>信用卡号</translation>
    </message>
    <message>
        <source>social security numbers</source>
        <translation>美国社会安全号</translation>
    </message>
    <message>
        <source>API keys</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>IP addresses</source>
        <translation>IP 地址</translation>
    </message>
    <message>
        <source>URLs</source>
        <translation>网址</translation>
    </message>
    <message>
        <source>UUIDs</source>
        <translation>UUID</translation>
    </message>
    <message>
        <source>crypto wallets</source>
        <translation>加密货币钱包</translation>
    </message>
    <message>
        <source>IBANs</source>
        <translation>IBAN 账号</translation>
    </message>
    <message>
        <source>Chinese resident ID numbers</source>
        <translation>中国居民身份证号</translation>
    </message>
    <message>
        <source>Taiwan national ID numbers</source>
        <translation>台湾身份证号</translation>
    </message>
    <message>
        <source>Hong Kong ID numbers</source>
        <translation>香港身份证号</translation>
    </message>
    <message>
        <source>names</source>
        <translation>姓名</translation>
    </message>
    <message>
        <source>addresses</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>dates of birth</source>
        <translation>出生日期</translation>
    </message>
    <message>
        <source>Export unmasked values?</source>
        <translation>导出未遮蔽的值？</translation>
    </message>
    <message>
        <source>The file will hold, unmasked, values the guardrails hid in the chat: {kinds}.</source>
        <translation>该文件将包含护栏在聊天中隐藏的值，且未遮蔽：{kinds}。</translation>
    </message>
    <message>
        <source>The regression test needs them to replay the run. Share the file as you would the conversation itself.</source>
        <translation>回归测试需要这些值来重放这次运行。请像对待对话本身一样分享此文件。</translation>
    </message>
    <message>
        <source>Export with the values</source>
        <translation>连同这些值导出</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>Workspace</name>
    <message>
        <source>The saved design “{name}” could not be read: {error}</source>
        <translation>无法读取已保存的设计“{name}”：{error}</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <source>Stop the running reply before switching threads.</source>
        <translation>切换对话前请先停止正在进行的回复。</translation>
    </message>
    <message>
        <source>A reply is still running: stop it first (Esc).</source>
        <translation>仍有回复正在进行：请先停止它（Esc）。</translation>
    </message>
    <message>
        <source>The agent could not be built: {error}</source>
        <translation>无法构建智能体：{error}</translation>
    </message>
    <message>
        <source>Starting MCP servers: {names}…</source>
        <translation>正在启动 MCP 服务器：{names}…</translation>
    </message>
    <message>
        <source>Nothing was sent: {error}</source>
        <translation>未发送任何内容：{error}</translation>
    </message>
    <message>
        <source>Stopped while the MCP servers were starting; nothing was sent.</source>
        <translation>在 MCP 服务器启动期间已停止；未发送任何内容。</translation>
    </message>
    <message>
        <source>Nothing was sent: this design&apos;s MCP server &apos;{name}&apos; runs a program on this computer ({command}). Allow it when asked, then send again.</source>
        <translation>未发送任何内容：此设计的 MCP 服务器“{name}”会在这台电脑上运行程序（{command}）。请在询问时允许，然后再次发送。</translation>
    </message>
    <message>
        <source>Nothing was sent: you did not allow this design&apos;s MCP server &apos;{name}&apos; to run ({command}). Disable its tools in the Agent tab, or open the design again to be asked again.</source>
        <translation>未发送任何内容：您没有允许此设计的 MCP 服务器“{name}”运行（{command}）。请在“智能体”标签页中停用它的工具，或重新打开该设计以再次询问。</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; was not started.</source>
        <translation>MCP 服务器“{name}”未启动。</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; may now run; send again to use it.</source>
        <translation>MCP 服务器“{name}”现在可以运行；再次发送即可使用。</translation>
    </message>
    <message>
        <source>No API key is set for {provider}. Add one in Settings → API keys (Ctrl+,), set the provider&apos;s environment variable, or pick the offline &apos;demo&apos; model in the Agent tab.</source>
        <translation>尚未为 {provider} 设置 API 密钥。请在“设置 → API 密钥”（Ctrl+,）中添加，或设置该提供方的环境变量，或在“智能体”标签页中选择离线的 demo 模型。</translation>
    </message>
    <message>
        <source>This message was sent there without a key.</source>
        <translation>此消息已在不带密钥的情况下发送到那里。</translation>
    </message>
    <message>
        <source>Nothing was sent.</source>
        <translation>未发送任何内容。</translation>
    </message>
    <message>
        <source>Your {provider} API key was not sent to {host}: it was saved for {saved_for}, and this design&apos;s model sends requests to {host}. {what_happened} If you trust {host}, allow your key there when asked (or in Settings → API keys and connection, Ctrl+,) and send again.</source>
        <translation>未把你的 {provider} API 密钥发送到 {host}：它是为 {saved_for} 保存的，而此设计的模型会把请求发送到 {host}。{what_happened}如果你信任 {host}，请在询问时允许向其发送密钥（或在“设置 → API 密钥与连接”中，Ctrl+,），然后重新发送。</translation>
    </message>
    <message>
        <source>Your {provider} key stays away from {host}.</source>
        <translation>你的 {provider} 密钥不会发送到 {host}。</translation>
    </message>
    <message>
        <source>Your {provider} key may now be sent to {host}; send again to use it.</source>
        <translation>你的 {provider} 密钥现在可以发送到 {host}；重新发送即可使用。</translation>
    </message>
    <message>
        <source>The key was not saved: &apos;{endpoint}&apos; is not an http or https address.</source>
        <translation>密钥未保存：“{endpoint}”不是 http 或 https 地址。</translation>
    </message>
    <message>
        <source>The key was saved in the system keyring, for {host} only.</source>
        <translation>密钥已保存到系统密钥环，仅用于 {host}。</translation>
    </message>
    <message>
        <source>The key is kept for this session only (no system keyring), for {host}.</source>
        <translation>密钥仅在本次会话中保留（没有系统密钥环），用于 {host}。</translation>
    </message>
    <message>
        <source>The key for {host} was removed.</source>
        <translation>{host} 的密钥已删除。</translation>
    </message>
    <message>
        <source>Tripwire: {reason} ({processor})</source>
        <translation>触发拦截：{reason}（{processor}）</translation>
    </message>
    <message>
        <source>Opened {file}</source>
        <translation>已打开 {file}</translation>
    </message>
    <message>
        <source>The design was not saved</source>
        <translation>设计未保存</translation>
    </message>
    <message>
        <source>Saved {file}</source>
        <translation>已保存 {file}</translation>
    </message>
    <message>
        <source>The script was not exported</source>
        <translation>脚本未导出</translation>
    </message>
    <message>
        <source>Exported {file} — run it with: python {file} (it needs {needs})</source>
        <translation>已导出 {file}——运行方式：python {file}（需要 {needs}）</translation>
    </message>
    <message>
        <source>New agent</source>
        <translation>新智能体</translation>
    </message>
    <message>
        <source>No thread is open.</source>
        <translation>没有打开的对话。</translation>
    </message>
    <message>
        <source>The thread was not exported</source>
        <translation>对话未导出</translation>
    </message>
    <message>
        <source>Exported the thread to {file}</source>
        <translation>已将对话导出到 {file}</translation>
    </message>
    <message>
        <source>The regression test cannot be exported again</source>
        <translation>无法再次导出回归测试</translation>
    </message>
    <message>
        <source>This run&apos;s regression test was never exported, or its file is gone.</source>
        <translation>此运行的回归测试从未导出过，或其文件已不存在。</translation>
    </message>
    <message>
        <source>The regression test cannot be exported</source>
        <translation>无法导出回归测试</translation>
    </message>
    <message>
        <source>Replay the run first: the test asserts what the replay gave.</source>
        <translation>请先重放此运行：测试断言的是重放得到的结果。</translation>
    </message>
    <message>
        <source>The regression test was not exported</source>
        <translation>回归测试未导出</translation>
    </message>
    <message>
        <source>Exported {0} — run it with: python -m pytest {0} (it needs only processors and pytest)</source>
        <translation>已导出 {0} — 运行方式：python -m pytest {0}（只需要 processors 和 pytest）</translation>
    </message>
    <message>
        <source>Imported {file}</source>
        <translation>已导入 {file}</translation>
    </message>
    <message>
        <source>Import stopped; nothing was written.</source>
        <translation>导入已停止；未写入任何内容。</translation>
    </message>
    <message>
        <source>%n message(s) (shown as placeholders)</source>
        <translation>%n 条消息（显示为占位符）</translation>
    </message>
    <message>
        <source>the {fields} of %n run(s)</source>
        <translation>%n 次运行的 {fields}</translation>
    </message>
    <message>
        <source> and </source>
        <translation>和</translation>
    </message>
    <message>
        <source>Part of this thread&apos;s saved data is damaged and could not be read: {parts}. Everything else is intact; the details are in the log.</source>
        <translation>此对话的部分已保存数据已损坏，无法读取：{parts}。其余内容完好；详情见日志。</translation>
    </message>
</context>
<context>
    <name>converter:atbash</name>
    <message>
        <source>Latin letters mirrored (Atbash: a becomes z, b becomes y).</source>
        <comment>atbash.description</comment>
        <translation>拉丁字母镜像替换（Atbash：a 变 z，b 变 y）。</translation>
    </message>
</context>
<context>
    <name>converter:base32</name>
    <message>
        <source>The text as Base32 (UTF-8 bytes).</source>
        <comment>base32.description</comment>
        <translation>文本的 Base32 编码（UTF-8 字节）。</translation>
    </message>
</context>
<context>
    <name>converter:base64</name>
    <message>
        <source>The text as Base64 (UTF-8 bytes).</source>
        <comment>base64.description</comment>
        <translation>文本的 Base64 编码（UTF-8 字节）。</translation>
    </message>
</context>
<context>
    <name>converter:binary</name>
    <message>
        <source>The text&apos;s UTF-8 bytes as 8-digit binary numbers.</source>
        <comment>binary.description</comment>
        <translation>文本的 UTF-8 字节写成 8 位二进制数。</translation>
    </message>
</context>
<context>
    <name>converter:caesar</name>
    <message>
        <source>Latin letters shifted by 3 (Caesar cipher: a becomes d).</source>
        <comment>caesar.description</comment>
        <translation>拉丁字母后移 3 位（凯撒密码：a 变 d）。</translation>
    </message>
</context>
<context>
    <name>converter:chaizi</name>
    <message>
        <source>Known characters split into their components (拆字: 指 → 「扌旨」).</source>
        <comment>chaizi.description</comment>
        <translation>已知汉字拆成部件（拆字：指 → 「扌旨」）。</translation>
    </message>
</context>
<context>
    <name>converter:char-swap</name>
    <message>
        <source>Two neighbouring letters swapped in about a third of the longer words.</source>
        <comment>char-swap.description</comment>
        <translation>约三分之一的较长单词中有两个相邻字母互换。</translation>
    </message>
</context>
<context>
    <name>converter:diacritics</name>
    <message>
        <source>Every vowel with a random accent (á, è, ô, ü, ã).</source>
        <comment>diacritics.description</comment>
        <translation>每个元音加上随机的变音符号（á、è、ô、ü、ã）。</translation>
    </message>
</context>
<context>
    <name>converter:document</name>
    <message>
        <source>The text as a note inside a document the user asks to summarise.</source>
        <comment>document.description</comment>
        <translation>文本作为一条备注藏在用户要求总结的文档里。</translation>
    </message>
</context>
<context>
    <name>converter:fullwidth</name>
    <message>
        <source>ASCII letters, digits and punctuation in their full-width forms (Ａ, ｂ, ！).</source>
        <comment>fullwidth.description</comment>
        <translation>ASCII 字母、数字和标点改用全角形式（Ａ、ｂ、！）。</translation>
    </message>
</context>
<context>
    <name>converter:hex</name>
    <message>
        <source>The text&apos;s UTF-8 bytes as lower-case hexadecimal.</source>
        <comment>hex.description</comment>
        <translation>文本的 UTF-8 字节写成小写十六进制。</translation>
    </message>
</context>
<context>
    <name>converter:homoglyph</name>
    <message>
        <source>About half the letters swapped for Cyrillic or Greek look-alikes.</source>
        <comment>homoglyph.description</comment>
        <translation>约一半字母换成形近的西里尔或希腊字母。</translation>
    </message>
</context>
<context>
    <name>converter:html-comment</name>
    <message>
        <source>The text hidden in an HTML comment inside a snippet to review.</source>
        <comment>html-comment.description</comment>
        <translation>文本藏在一段待检查 HTML 代码的注释里。</translation>
    </message>
</context>
<context>
    <name>converter:identity</name>
    <message>
        <source>The text unchanged (the baseline).</source>
        <comment>identity.description</comment>
        <translation>文本保持不变（基线）。</translation>
    </message>
</context>
<context>
    <name>converter:leetspeak</name>
    <message>
        <source>Letters written as digits (a→4, e→3, i→1, o→0, s→5, t→7).</source>
        <comment>leetspeak.description</comment>
        <translation>字母写成数字（a→4、e→3、i→1、o→0、s→5、t→7）。</translation>
    </message>
</context>
<context>
    <name>converter:letter-split</name>
    <message>
        <source>Each word&apos;s letters joined by -, ., _, *, / or |.</source>
        <comment>letter-split.description</comment>
        <translation>每个单词的字母之间用 -、.、_、*、/ 或 | 连接。</translation>
    </message>
</context>
<context>
    <name>converter:many-shot</name>
    <message>
        <source>8 fake exchanges where the assistant complied, then the text.</source>
        <comment>many-shot.description</comment>
        <translation>先给出 8 段助手都照做了的虚假对话，再给出文本。</translation>
    </message>
</context>
<context>
    <name>converter:markdown-comment</name>
    <message>
        <source>The text hidden in a Markdown comment inside harmless notes.</source>
        <comment>markdown-comment.description</comment>
        <translation>文本藏在一段无害笔记的 Markdown 注释里。</translation>
    </message>
</context>
<context>
    <name>converter:morse</name>
    <message>
        <source>Letters and digits in Morse code, words separated by &apos;/&apos; (reads back in lower case).</source>
        <comment>morse.description</comment>
        <translation>字母和数字写成摩尔斯电码，单词之间用“/”分隔（解码后为小写）。</translation>
    </message>
</context>
<context>
    <name>converter:pinyin</name>
    <message>
        <source>Chinese characters as pinyin with tone marks (hū lüè).</source>
        <comment>pinyin.description</comment>
        <translation>汉字写成带声调的拼音（hū lüè）。</translation>
    </message>
</context>
<context>
    <name>converter:pinyin-initials</name>
    <message>
        <source>Each Chinese character as its pinyin&apos;s first letter (密码 → mm).</source>
        <comment>pinyin-initials.description</comment>
        <translation>每个汉字写成其拼音的首字母（密码 → mm）。</translation>
    </message>
</context>
<context>
    <name>converter:pinyin-plain</name>
    <message>
        <source>Chinese characters as pinyin without tones (hu lve).</source>
        <comment>pinyin-plain.description</comment>
        <translation>汉字写成不带声调的拼音（hu lve）。</translation>
    </message>
</context>
<context>
    <name>converter:prefix</name>
    <message>
        <source>A framing sentence before the text (authority, urgency or &apos;no caveats&apos;).</source>
        <comment>prefix.description</comment>
        <translation>在文本前加一句铺垫（权威、紧急或“不要附加警告”）。</translation>
    </message>
</context>
<context>
    <name>converter:random-caps</name>
    <message>
        <source>Each letter upper or lower case at random.</source>
        <comment>random-caps.description</comment>
        <translation>每个字母随机大写或小写。</translation>
    </message>
</context>
<context>
    <name>converter:reverse</name>
    <message>
        <source>The whole text backwards.</source>
        <comment>reverse.description</comment>
        <translation>整段文本倒序。</translation>
    </message>
</context>
<context>
    <name>converter:reverse-words</name>
    <message>
        <source>Each word backwards, in its place.</source>
        <comment>reverse-words.description</comment>
        <translation>每个单词原地倒序。</translation>
    </message>
</context>
<context>
    <name>converter:role-play</name>
    <message>
        <source>The text said to a character who has no rules (role play).</source>
        <comment>role-play.description</comment>
        <translation>把文本说给一个没有任何规则的角色听（角色扮演）。</translation>
    </message>
</context>
<context>
    <name>converter:rot13</name>
    <message>
        <source>Latin letters rotated by 13 (ROT13; applying it twice gives the text back).</source>
        <comment>rot13.description</comment>
        <translation>拉丁字母轮转 13 位（ROT13；做两次即还原）。</translation>
    </message>
</context>
<context>
    <name>converter:spacing</name>
    <message>
        <source>A space between letters, three between words.</source>
        <comment>spacing.description</comment>
        <translation>字母之间加一个空格，单词之间加三个。</translation>
    </message>
</context>
<context>
    <name>converter:split-turns</name>
    <message>
        <source>The text cut into 2–3 user turns, the last asking to join and follow them.</source>
        <comment>split-turns.description</comment>
        <translation>文本拆成 2–3 轮用户消息，最后一轮要求拼起来照做。</translation>
    </message>
</context>
<context>
    <name>converter:story</name>
    <message>
        <source>The text inside a request for fiction (&apos;for a story&apos;, &apos;for a novel&apos;).</source>
        <comment>story.description</comment>
        <translation>文本包在一个写小说的请求里（“为了写故事”“为了写小说”）。</translation>
    </message>
</context>
<context>
    <name>converter:suffix</name>
    <message>
        <source>A sentence after the text asking for compliance without warnings.</source>
        <comment>suffix.description</comment>
        <translation>在文本后加一句话，要求照做且不要附加警告。</translation>
    </message>
</context>
<context>
    <name>converter:tag-smuggle</name>
    <message>
        <source>The text in invisible Unicode tag characters (U+E0020–U+E007E).</source>
        <comment>tag-smuggle.description</comment>
        <translation>文本写成不可见的 Unicode 标签字符（U+E0020–U+E007E）。</translation>
    </message>
</context>
<context>
    <name>converter:tool-result</name>
    <message>
        <source>The text as a field of a pasted JSON tool result.</source>
        <comment>tool-result.description</comment>
        <translation>文本作为粘贴进来的 JSON 工具结果中的一个字段。</translation>
    </message>
</context>
<context>
    <name>converter:typos</name>
    <message>
        <source>About one letter in twelve mistyped (a neighbouring key, doubled or dropped).</source>
        <comment>typos.description</comment>
        <translation>约每十二个字母打错一个（按到相邻键、重复或漏掉）。</translation>
    </message>
</context>
<context>
    <name>converter:url</name>
    <message>
        <source>Every byte percent-encoded (%49%67…), as in a URL.</source>
        <comment>url.description</comment>
        <translation>每个字节都做百分号编码（%49%67…），如同 URL 中那样。</translation>
    </message>
</context>
<context>
    <name>converter:variables</name>
    <message>
        <source>The text cut into string variables to concatenate and follow.</source>
        <comment>variables.description</comment>
        <translation>文本拆成若干字符串变量，要求拼接后照做。</translation>
    </message>
</context>
<context>
    <name>converter:zalgo</name>
    <message>
        <source>Combining marks stacked above and below every letter (zalgo text).</source>
        <comment>zalgo.description</comment>
        <translation>每个字母上下叠加组合符号（zalgo 文字）。</translation>
    </message>
</context>
<context>
    <name>converter:zero-width</name>
    <message>
        <source>Invisible zero-width characters between the letters of every word.</source>
        <comment>zero-width.description</comment>
        <translation>每个单词的字母之间插入不可见的零宽字符。</translation>
    </message>
</context>
<context>
    <name>converter:zh-en-mix</name>
    <message>
        <source>About half the known words in the other language (Chinese–English mixing).</source>
        <comment>zh-en-mix.description</comment>
        <translation>约一半已知词语换成另一种语言（中英混杂）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-homophone</name>
    <message>
        <source>About half the known characters swapped for homophones (密码 → 蜜马).</source>
        <comment>zh-homophone.description</comment>
        <translation>约一半已知汉字换成同音字（密码 → 蜜马）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-lookalike</name>
    <message>
        <source>About half the known characters swapped for look-alikes (我 → 找).</source>
        <comment>zh-lookalike.description</comment>
        <translation>约一半已知汉字换成形近字（我 → 找）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-punct</name>
    <message>
        <source>Full-width punctuation, and separators (·、｜) between Chinese characters.</source>
        <comment>zh-punct.description</comment>
        <translation>使用全角标点，并在汉字之间插入分隔符（·、｜）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-s2t</name>
    <message>
        <source>Simplified Chinese written in Traditional characters (OpenCC s2t).</source>
        <comment>zh-s2t.description</comment>
        <translation>简体中文改写为繁体字（OpenCC s2t）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-t2s</name>
    <message>
        <source>Traditional Chinese written in Simplified characters (OpenCC t2s).</source>
        <comment>zh-t2s.description</comment>
        <translation>繁体中文改写为简体字（OpenCC t2s）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-vertical</name>
    <message>
        <source>One character a line, as in vertical writing.</source>
        <comment>zh-vertical.description</comment>
        <translation>每行一个字符，如同竖排书写。</translation>
    </message>
</context>
<context>
    <name>processor:AzurePromptShields</name>
    <message>
        <source>Azure Prompt Shields</source>
        <comment>AzurePromptShields.name</comment>
        <translation>Azure Prompt Shields</translation>
    </message>
    <message>
        <source>Sends each message and tool result to Azure AI Content Safety&apos;s Prompt Shields (hosted).</source>
        <comment>AzurePromptShields.description</comment>
        <translation>将每条消息和工具结果发送到 Azure AI Content Safety 的 Prompt Shields（托管服务）。</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <comment>AzurePromptShields.options.endpoint</comment>
        <translation>端点</translation>
    </message>
    <message>
        <source>Your Content Safety resource&apos;s endpoint (https://&lt;resource&gt;.cognitiveservices.azure.com)</source>
        <comment>AzurePromptShields.options.endpoint.help</comment>
        <translation>你的 Content Safety 资源的端点（https://&lt;resource&gt;.cognitiveservices.azure.com）</translation>
    </message>
    <message>
        <source>Time Limit</source>
        <comment>AzurePromptShields.options.time_limit</comment>
        <translation>时间限制</translation>
    </message>
    <message>
        <source>Seconds to wait for a verdict, waits for Retry-After included</source>
        <comment>AzurePromptShields.options.time_limit.help</comment>
        <translation>等待判定的秒数，包括按 Retry-After 等待的时间</translation>
    </message>
    <message>
        <source>On Failure</source>
        <comment>AzurePromptShields.options.on_failure</comment>
        <translation>失败时</translation>
    </message>
    <message>
        <source>When the service gives no verdict (time limit, error, rate limit): block, or let the text through</source>
        <comment>AzurePromptShields.options.on_failure.help</comment>
        <translation>服务未给出判定时（超时、出错、限流）：拦截，或放行文本</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>AzurePromptShields.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block or warn</source>
        <comment>AzurePromptShields.options.strategy.help</comment>
        <translation>block 或 warn</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>AzurePromptShields.options.last_message_only</comment>
        <translation>仅最后一条消息</translation>
    </message>
    <message>
        <source>Check only the last user message</source>
        <comment>AzurePromptShields.options.last_message_only.help</comment>
        <translation>只检查最后一条用户消息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>AzurePromptShields.options.check_tool_results</comment>
        <translation>检查工具结果</translation>
    </message>
    <message>
        <source>In the output lane: check tool results too</source>
        <comment>AzurePromptShields.options.check_tool_results.help</comment>
        <translation>在输出通道中：也检查工具结果</translation>
    </message>
    <message>
        <source>API version</source>
        <comment>AzurePromptShields.options.api_version</comment>
        <translation>API 版本</translation>
    </message>
    <message>
        <source>Prompt Shields&apos; API version</source>
        <comment>AzurePromptShields.options.api_version.help</comment>
        <translation>Prompt Shields 的 API 版本</translation>
    </message>
    <message>
        <source>{service} flagged the input: {categories} (score {score:.2f})</source>
        <comment>AzurePromptShields.flagged_input</comment>
        <translation>{service} 标记了输入：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the answer: {categories} (score {score:.2f})</source>
        <comment>AzurePromptShields.flagged_answer</comment>
        <translation>{service} 标记了回答：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the result of tool &apos;{tool}&apos;: {categories} (score {score:.2f})</source>
        <comment>AzurePromptShields.flagged_tool</comment>
        <translation>{service} 标记了工具“{tool}”的结果：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} gave no verdict within {seconds:g} s; blocked (fail-closed)</source>
        <comment>AzurePromptShields.timeout</comment>
        <translation>{service} 未在 {seconds:g} 秒内给出判定；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} is rate-limiting this key (HTTP 429); blocked (fail-closed)</source>
        <comment>AzurePromptShields.rate_limited</comment>
        <translation>{service} 正在限制此密钥的请求频率（HTTP 429）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} failed (HTTP {status}); blocked (fail-closed)</source>
        <comment>AzurePromptShields.server_error</comment>
        <translation>{service} 出错（HTTP {status}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} refused the API key for {host} (HTTP {status}); blocked (fail-closed)</source>
        <comment>AzurePromptShields.unauthorized</comment>
        <translation>{service} 拒绝了用于 {host} 的 API 密钥（HTTP {status}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} refused the request (HTTP {status}: {detail}); blocked (fail-closed)</source>
        <comment>AzurePromptShields.rejected</comment>
        <translation>{service} 拒绝了请求（HTTP {status}：{detail}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} at {host} cannot be reached ({detail}); blocked (fail-closed)</source>
        <comment>AzurePromptShields.unreachable</comment>
        <translation>无法连接位于 {host} 的 {service}（{detail}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} answered in a form it does not document; blocked (fail-closed)</source>
        <comment>AzurePromptShields.malformed</comment>
        <translation>{service} 返回了其文档中没有的格式；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>No API key for {service} at {host}: save one with the Key button, or set {variable}; blocked (fail-closed)</source>
        <comment>AzurePromptShields.no_key</comment>
        <translation>没有用于 {host} 上 {service} 的 API 密钥：用“密钥…”按钮保存一个，或设置 {variable}；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} has nothing to call: fill in its endpoint (and template); blocked (fail-closed)</source>
        <comment>AzurePromptShields.no_endpoint</comment>
        <translation>{service} 没有可调用的地址：请填写其端点（和模板）；已拦截（出错时拦截）</translation>
    </message>
</context>
<context>
    <name>processor:BatchParts</name>
    <message>
        <source>Batch Parts</source>
        <comment>BatchParts.name</comment>
        <translation>分批合并</translation>
    </message>
    <message>
        <source>Combines streamed text deltas into larger chunks: fewer, bigger updates for clients.</source>
        <comment>BatchParts.description</comment>
        <translation>把流式文本增量合并成更大的数据块：客户端收到的更新更少、更大。</translation>
    </message>
    <message>
        <source>Batch Size</source>
        <comment>BatchParts.options.batch_size</comment>
        <translation>批大小</translation>
    </message>
    <message>
        <source>How many parts to combine into one.</source>
        <comment>BatchParts.options.batch_size.help</comment>
        <translation>每批合并多少个部分。</translation>
    </message>
    <message>
        <source>Max Wait Ms</source>
        <comment>BatchParts.options.max_wait_ms</comment>
        <translation>最长等待（毫秒）</translation>
    </message>
    <message>
        <source>Release a batch whose first part has waited this long (checked when the next part arrives).</source>
        <comment>BatchParts.options.max_wait_ms.help</comment>
        <translation>批中第一个部分等待达到此时长即放行该批（在下一个部分到达时检查）。</translation>
    </message>
    <message>
        <source>Emit On Non Text</source>
        <comment>BatchParts.options.emit_on_non_text</comment>
        <translation>遇非文本即放行</translation>
    </message>
    <message>
        <source>Release the batch as soon as a non-text part (tool call, text end ...) arrives; when off, other parts wait in the batch in stream order (a text end still releases it).</source>
        <comment>BatchParts.options.emit_on_non_text.help</comment>
        <translation>一旦收到非文本部分（工具调用、文本结束……）就放行该批；关闭时，其他部分按流的顺序在批中等待（文本结束仍会放行）。</translation>
    </message>
</context>
<context>
    <name>processor:ClassifierGuard</name>
    <message>
        <source>Classifier guard</source>
        <comment>ClassifierGuard.name</comment>
        <translation>分类器防护</translation>
    </message>
    <message>
        <source>Runs a text-classification model from a local folder (ONNX) and flags texts it scores as attacks.</source>
        <comment>ClassifierGuard.description</comment>
        <translation>运行本地文件夹中的文本分类模型（ONNX），标记被判为攻击的文本。</translation>
    </message>
    <message>
        <source>Model Folder</source>
        <comment>ClassifierGuard.options.model_folder</comment>
        <translation>模型文件夹</translation>
    </message>
    <message>
        <source>Folder with the model&apos;s .onnx file, tokenizer.json and config.json</source>
        <comment>ClassifierGuard.options.model_folder.help</comment>
        <translation>包含模型 .onnx 文件、tokenizer.json 和 config.json 的文件夹</translation>
    </message>
    <message>
        <source>Attack Label</source>
        <comment>ClassifierGuard.options.attack_label</comment>
        <translation>攻击标签</translation>
    </message>
    <message>
        <source>The model&apos;s label that means attack (empty: the second of two labels)</source>
        <comment>ClassifierGuard.options.attack_label.help</comment>
        <translation>模型中表示攻击的标签（留空：两个标签中的第二个）</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>ClassifierGuard.options.threshold</comment>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Flag a text whose attack score reaches this</source>
        <comment>ClassifierGuard.options.threshold.help</comment>
        <translation>攻击得分达到此值的文本会被标记</translation>
    </message>
    <message>
        <source>Max Length</source>
        <comment>ClassifierGuard.options.max_length</comment>
        <translation>最大长度</translation>
    </message>
    <message>
        <source>Tokens per window the model reads</source>
        <comment>ClassifierGuard.options.max_length.help</comment>
        <translation>模型每个窗口读取的词元数</translation>
    </message>
    <message>
        <source>Stride</source>
        <comment>ClassifierGuard.options.stride</comment>
        <translation>重叠步长</translation>
    </message>
    <message>
        <source>Tokens two windows of a long text share</source>
        <comment>ClassifierGuard.options.stride.help</comment>
        <translation>长文本相邻两个窗口共有的词元数</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>ClassifierGuard.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block or warn</source>
        <comment>ClassifierGuard.options.strategy.help</comment>
        <translation>block 或 warn</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>ClassifierGuard.options.last_message_only</comment>
        <translation>仅最后一条消息</translation>
    </message>
    <message>
        <source>Check only the last message</source>
        <comment>ClassifierGuard.options.last_message_only.help</comment>
        <translation>只检查最后一条消息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>ClassifierGuard.options.check_tool_results</comment>
        <translation>检查工具结果</translation>
    </message>
    <message>
        <source>In the output lane: check tool results too</source>
        <comment>ClassifierGuard.options.check_tool_results.help</comment>
        <translation>在输出通道中：也检查工具结果</translation>
    </message>
    <message>
        <source>ONNX file</source>
        <comment>ClassifierGuard.options.onnx_file</comment>
        <translation>ONNX 文件</translation>
    </message>
    <message>
        <source>The .onnx file to run when the folder holds several</source>
        <comment>ClassifierGuard.options.onnx_file.help</comment>
        <translation>文件夹中有多个 .onnx 文件时要运行的那个</translation>
    </message>
    <message>
        <source>No model folder chosen</source>
        <comment>ClassifierGuard.folder_not_chosen</comment>
        <translation>未选择模型文件夹</translation>
    </message>
    <message>
        <source>Model folder not found: {folder}</source>
        <comment>ClassifierGuard.folder_not_found</comment>
        <translation>找不到模型文件夹：{folder}</translation>
    </message>
    <message>
        <source>No config.json in the model folder {folder}</source>
        <comment>ClassifierGuard.no_config</comment>
        <translation>模型文件夹 {folder} 中没有 config.json</translation>
    </message>
    <message>
        <source>config.json in {folder} is not readable JSON: {error}</source>
        <comment>ClassifierGuard.unreadable_config</comment>
        <translation>{folder} 中的 config.json 不是可读的 JSON：{error}</translation>
    </message>
    <message>
        <source>config.json in {folder} has no id2label (the model&apos;s class names)</source>
        <comment>ClassifierGuard.no_labels</comment>
        <translation>{folder} 中的 config.json 没有 id2label（模型的类别名称）</translation>
    </message>
    <message>
        <source>{file} not found in the model folder {folder}</source>
        <comment>ClassifierGuard.named_onnx_missing</comment>
        <translation>在模型文件夹 {folder} 中找不到 {file}</translation>
    </message>
    <message>
        <source>Several ONNX files in {folder} ({files}): name the one to use</source>
        <comment>ClassifierGuard.several_onnx</comment>
        <translation>{folder} 中有多个 ONNX 文件（{files}）：请指定要使用的文件</translation>
    </message>
    <message>
        <source>No .onnx file in the model folder {folder} (export one with optimum-cli)</source>
        <comment>ClassifierGuard.no_onnx</comment>
        <translation>模型文件夹 {folder} 中没有 .onnx 文件（可用 optimum-cli 导出）</translation>
    </message>
    <message>
        <source>No tokenizer.json in the model folder {folder}</source>
        <comment>ClassifierGuard.no_tokenizer</comment>
        <translation>模型文件夹 {folder} 中没有 tokenizer.json</translation>
    </message>
    <message>
        <source>tokenizer.json in {folder} is not a tokenizers file: {error}</source>
        <comment>ClassifierGuard.bad_tokenizer</comment>
        <translation>{folder} 中的 tokenizer.json 不是 tokenizers 文件：{error}</translation>
    </message>
    <message>
        <source>{file} is not a model onnxruntime can run: {error}</source>
        <comment>ClassifierGuard.bad_onnx</comment>
        <translation>{file} 不是 onnxruntime 能运行的模型：{error}</translation>
    </message>
    <message>
        <source>{file} takes the inputs {inputs}; a text classifier takes input_ids (and optionally attention_mask, token_type_ids)</source>
        <comment>ClassifierGuard.bad_inputs</comment>
        <translation>{file} 的输入是 {inputs}；文本分类模型的输入应为 input_ids（可另有 attention_mask、token_type_ids）</translation>
    </message>
    <message>
        <source>stride {stride} must be smaller than max_length {max_length} minus the model&apos;s {special} special tokens</source>
        <comment>ClassifierGuard.bad_stride</comment>
        <translation>stride {stride} 必须小于 max_length {max_length} 减去模型的 {special} 个特殊标记</translation>
    </message>
    <message>
        <source>the model answers {scores} scores per text, config.json names {count} labels</source>
        <comment>ClassifierGuard.bad_outputs</comment>
        <translation>模型对每段文本给出 {scores} 个分数，而 config.json 列出了 {count} 个标签</translation>
    </message>
    <message>
        <source>{folder} holds PyTorch/safetensors weights and no .onnx file: install the transformers extra (pip install &apos;processor-studio[transformers]&apos;) or export the model to ONNX (optimum-cli export onnx --task text-classification)</source>
        <comment>ClassifierGuard.needs_transformers</comment>
        <translation>{folder} 中只有 PyTorch/safetensors 权重，没有 .onnx 文件：请安装 transformers 扩展（pip install &apos;processor-studio[transformers]&apos;），或将模型导出为 ONNX（optimum-cli export onnx --task text-classification）</translation>
    </message>
    <message>
        <source>The model has the labels {labels}: choose the one that means attack</source>
        <comment>ClassifierGuard.choose_label</comment>
        <translation>模型的标签为 {labels}：请选择表示攻击的那一个</translation>
    </message>
    <message>
        <source>The model has no label {label}; its labels: {labels}</source>
        <comment>ClassifierGuard.unknown_label</comment>
        <translation>模型没有标签 {label}；它的标签：{labels}</translation>
    </message>
    <message>
        <source>Classifier flagged the input: {label} score {score:.2f} (threshold {threshold:.2f})</source>
        <comment>ClassifierGuard.flagged_input</comment>
        <translation>分类器标记了输入：{label} 得分 {score:.2f}（阈值 {threshold:.2f}）</translation>
    </message>
    <message>
        <source>Classifier flagged the answer: {label} score {score:.2f} (threshold {threshold:.2f})</source>
        <comment>ClassifierGuard.flagged_answer</comment>
        <translation>分类器标记了回答：{label} 得分 {score:.2f}（阈值 {threshold:.2f}）</translation>
    </message>
    <message>
        <source>Classifier flagged the result of tool &apos;{tool}&apos;: {label} score {score:.2f} (threshold {threshold:.2f})</source>
        <comment>ClassifierGuard.flagged_tool</comment>
        <translation>分类器标记了工具“{tool}”的结果：{label} 得分 {score:.2f}（阈值 {threshold:.2f}）</translation>
    </message>
</context>
<context>
    <name>processor:ClassifierGuardOptions</name>
    <message>
        <source>stride must be smaller than max_length</source>
        <comment>ClassifierGuardOptions.stride_too_long</comment>
        <translation>stride 必须小于 max_length</translation>
    </message>
</context>
<context>
    <name>processor:CostGuard</name>
    <message>
        <source>Cost Guard</source>
        <comment>CostGuard.name</comment>
        <translation>费用守卫</translation>
    </message>
    <message>
        <source>A spending budget per run, thread or user, priced with litellm&apos;s offline price map.</source>
        <comment>CostGuard.description</comment>
        <translation>按运行、对话或用户设定的花费预算，用 litellm 的离线价格表计价。</translation>
    </message>
    <message>
        <source>Max Cost</source>
        <comment>CostGuard.options.max_cost</comment>
        <translation>费用上限</translation>
    </message>
    <message>
        <source>The budget in US dollars.</source>
        <comment>CostGuard.options.max_cost.help</comment>
        <translation>预算金额（美元）。</translation>
    </message>
    <message>
        <source>Scope</source>
        <comment>CostGuard.options.scope</comment>
        <translation>范围</translation>
    </message>
    <message>
        <source>What the budget is for: one run, one conversation, or one user.</source>
        <comment>CostGuard.options.scope.help</comment>
        <translation>预算针对的对象：一次运行、一个对话或一个用户。</translation>
    </message>
    <message>
        <source>Window Hours</source>
        <comment>CostGuard.options.window_hours</comment>
        <translation>时间窗口（小时）</translation>
    </message>
    <message>
        <source>Only spending in this many past hours counts (unset: since the ledger began).</source>
        <comment>CostGuard.options.window_hours.help</comment>
        <translation>只计算过去这么多小时内的花费（未设置：从账本开始算起）。</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>CostGuard.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>Over budget: refuse the model call (block) or only report it (warn).</source>
        <comment>CostGuard.options.strategy.help</comment>
        <translation>超出预算时：拒绝模型调用（block）或仅报告（warn）。</translation>
    </message>
    <message>
        <source>Message</source>
        <comment>CostGuard.options.message</comment>
        <translation>消息</translation>
    </message>
    <message>
        <source>The tripwire reason when blocking (a default names the budget).</source>
        <comment>CostGuard.options.message.help</comment>
        <translation>拦截时的触发原因（默认会写明预算）。</translation>
    </message>
    <message>
        <source>Warn At Percent</source>
        <comment>CostGuard.options.warn_at_percent</comment>
        <translation>预警百分比</translation>
    </message>
    <message>
        <source>Report a soft warning once this share of the budget is spent.</source>
        <comment>CostGuard.options.warn_at_percent.help</comment>
        <translation>预算花费达到此比例时发出软警告。</translation>
    </message>
    <message>
        <source>Include Breakdown</source>
        <comment>CostGuard.options.include_breakdown</comment>
        <translation>包含明细</translation>
    </message>
    <message>
        <source>Add a per-model cost breakdown to the metadata.</source>
        <comment>CostGuard.options.include_breakdown.help</comment>
        <translation>在元数据中加入按模型划分的费用明细。</translation>
    </message>
    <message>
        <source>Price Model</source>
        <comment>CostGuard.options.price_model</comment>
        <translation>计价模型</translation>
    </message>
    <message>
        <source>Price calls as this model (litellm&apos;s name, e.g. gpt-4o-mini) instead of the run&apos;s model.</source>
        <comment>CostGuard.options.price_model.help</comment>
        <translation>按此模型计价（litellm 中的名称，如 gpt-4o-mini），而不是按本次运行的模型。</translation>
    </message>
    <message>
        <source>Input Cost Per Million</source>
        <comment>CostGuard.options.input_cost_per_million</comment>
        <translation>每百万输入令牌费用</translation>
    </message>
    <message>
        <source>USD per million input tokens (overrides the price map).</source>
        <comment>CostGuard.options.input_cost_per_million.help</comment>
        <translation>每百万输入令牌的美元价格（覆盖价格表）。</translation>
    </message>
    <message>
        <source>Output Cost Per Million</source>
        <comment>CostGuard.options.output_cost_per_million</comment>
        <translation>每百万输出令牌费用</translation>
    </message>
    <message>
        <source>USD per million output tokens (overrides the price map).</source>
        <comment>CostGuard.options.output_cost_per_million.help</comment>
        <translation>每百万输出令牌的美元价格（覆盖价格表）。</translation>
    </message>
    <message>
        <source>Cost budget of ${budget} for this {scope} is used up (spent ${spent})</source>
        <comment>CostGuard.used_up</comment>
        <translation>此{scope}的费用预算 ${budget} 已用完（已花费 ${spent}）</translation>
    </message>
    <message>
        <source>Cost budget of ${budget} for this {scope} is {share:.0%} spent (${spent})</source>
        <comment>CostGuard.nearly_used</comment>
        <translation>此{scope}的费用预算 ${budget} 已用掉 {share:.0%}（已花费 ${spent}）</translation>
    </message>
    <message>
        <source>run</source>
        <comment>CostGuard.scope=run</comment>
        <translation>运行</translation>
    </message>
    <message>
        <source>thread</source>
        <comment>CostGuard.scope=thread</comment>
        <translation>对话</translation>
    </message>
    <message>
        <source>resource</source>
        <comment>CostGuard.scope=resource</comment>
        <translation>用户</translation>
    </message>
</context>
<context>
    <name>processor:JudgeOptions</name>
    <message>
        <source>must be a model id string (e.g. &apos;openai/gpt-4o-mini&apos;) or a LanguageModel object</source>
        <comment>JudgeOptions.model_kind</comment>
        <translation>必须是模型 ID 字符串（如 &apos;openai/gpt-4o-mini&apos;）或 LanguageModel 对象</translation>
    </message>
    <message>
        <source>judge_preset: unknown preset (known: {known})</source>
        <comment>JudgeOptions.unknown_preset</comment>
        <translation>judge_preset：未知的预设（可用：{known}）</translation>
    </message>
    <message>
        <source>must be a local server (localhost, 127.0.0.1 or ::1); a hosted judge needs no api_base</source>
        <comment>JudgeOptions.local_only</comment>
        <translation>必须是本机服务器（localhost、127.0.0.1 或 ::1）；托管的评判模型不需要 api_base</translation>
    </message>
</context>
<context>
    <name>processor:LakeraGuard</name>
    <message>
        <source>Lakera Guard</source>
        <comment>LakeraGuard.name</comment>
        <translation>Lakera Guard</translation>
    </message>
    <message>
        <source>Sends each message to Lakera Guard (hosted) and blocks what its policy flags.</source>
        <comment>LakeraGuard.description</comment>
        <translation>将每条消息发送到 Lakera Guard（托管服务），并拦截其策略标记的内容。</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <comment>LakeraGuard.options.endpoint</comment>
        <translation>端点</translation>
    </message>
    <message>
        <source>Lakera Guard&apos;s address (a self-hosted Guard&apos;s too); the API key is bound to it</source>
        <comment>LakeraGuard.options.endpoint.help</comment>
        <translation>Lakera Guard 的地址（也可以是自托管的 Guard）；API 密钥与它绑定</translation>
    </message>
    <message>
        <source>Time Limit</source>
        <comment>LakeraGuard.options.time_limit</comment>
        <translation>时间限制</translation>
    </message>
    <message>
        <source>Seconds to wait for a verdict, waits for Retry-After included</source>
        <comment>LakeraGuard.options.time_limit.help</comment>
        <translation>等待判定的秒数，包括按 Retry-After 等待的时间</translation>
    </message>
    <message>
        <source>On Failure</source>
        <comment>LakeraGuard.options.on_failure</comment>
        <translation>失败时</translation>
    </message>
    <message>
        <source>When the service gives no verdict (time limit, error, rate limit): block, or let the text through</source>
        <comment>LakeraGuard.options.on_failure.help</comment>
        <translation>服务未给出判定时（超时、出错、限流）：拦截，或放行文本</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>LakeraGuard.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block or warn</source>
        <comment>LakeraGuard.options.strategy.help</comment>
        <translation>block 或 warn</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>LakeraGuard.options.last_message_only</comment>
        <translation>仅最后一条消息</translation>
    </message>
    <message>
        <source>Check only the last user message</source>
        <comment>LakeraGuard.options.last_message_only.help</comment>
        <translation>只检查最后一条用户消息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>LakeraGuard.options.check_tool_results</comment>
        <translation>检查工具结果</translation>
    </message>
    <message>
        <source>In the output lane: check tool results too</source>
        <comment>LakeraGuard.options.check_tool_results.help</comment>
        <translation>在输出通道中：也检查工具结果</translation>
    </message>
    <message>
        <source>Project ID</source>
        <comment>LakeraGuard.options.project_id</comment>
        <translation>项目 ID</translation>
    </message>
    <message>
        <source>The Lakera project whose policy screens (empty: the default)</source>
        <comment>LakeraGuard.options.project_id.help</comment>
        <translation>用其策略进行筛查的 Lakera 项目（留空：默认项目）</translation>
    </message>
    <message>
        <source>Check Answers</source>
        <comment>LakeraGuard.options.check_answers</comment>
        <translation>检查回答</translation>
    </message>
    <message>
        <source>In the output lane: check the model&apos;s answer too</source>
        <comment>LakeraGuard.options.check_answers.help</comment>
        <translation>在输出通道中：也检查模型的回答</translation>
    </message>
    <message>
        <source>{service} flagged the input: {categories} (score {score:.2f})</source>
        <comment>LakeraGuard.flagged_input</comment>
        <translation>{service} 标记了输入：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the answer: {categories} (score {score:.2f})</source>
        <comment>LakeraGuard.flagged_answer</comment>
        <translation>{service} 标记了回答：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the result of tool &apos;{tool}&apos;: {categories} (score {score:.2f})</source>
        <comment>LakeraGuard.flagged_tool</comment>
        <translation>{service} 标记了工具“{tool}”的结果：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} gave no verdict within {seconds:g} s; blocked (fail-closed)</source>
        <comment>LakeraGuard.timeout</comment>
        <translation>{service} 未在 {seconds:g} 秒内给出判定；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} is rate-limiting this key (HTTP 429); blocked (fail-closed)</source>
        <comment>LakeraGuard.rate_limited</comment>
        <translation>{service} 正在限制此密钥的请求频率（HTTP 429）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} failed (HTTP {status}); blocked (fail-closed)</source>
        <comment>LakeraGuard.server_error</comment>
        <translation>{service} 出错（HTTP {status}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} refused the API key for {host} (HTTP {status}); blocked (fail-closed)</source>
        <comment>LakeraGuard.unauthorized</comment>
        <translation>{service} 拒绝了用于 {host} 的 API 密钥（HTTP {status}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} refused the request (HTTP {status}: {detail}); blocked (fail-closed)</source>
        <comment>LakeraGuard.rejected</comment>
        <translation>{service} 拒绝了请求（HTTP {status}：{detail}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} at {host} cannot be reached ({detail}); blocked (fail-closed)</source>
        <comment>LakeraGuard.unreachable</comment>
        <translation>无法连接位于 {host} 的 {service}（{detail}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} answered in a form it does not document; blocked (fail-closed)</source>
        <comment>LakeraGuard.malformed</comment>
        <translation>{service} 返回了其文档中没有的格式；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>No API key for {service} at {host}: save one with the Key button, or set {variable}; blocked (fail-closed)</source>
        <comment>LakeraGuard.no_key</comment>
        <translation>没有用于 {host} 上 {service} 的 API 密钥：用“密钥…”按钮保存一个，或设置 {variable}；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} has nothing to call: fill in its endpoint (and template); blocked (fail-closed)</source>
        <comment>LakeraGuard.no_endpoint</comment>
        <translation>{service} 没有可调用的地址：请填写其端点（和模板）；已拦截（出错时拦截）</translation>
    </message>
</context>
<context>
    <name>processor:LanguageDetector</name>
    <message>
        <source>Language detector</source>
        <comment>LanguageDetector.name</comment>
        <translation>语言检测器</translation>
    </message>
    <message>
        <source>Detects the language of input messages offline; tags, translates (model), blocks or warns.</source>
        <comment>LanguageDetector.description</comment>
        <translation>离线检测输入消息的语言；可标记、翻译（需模型）、拦截或警告。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>LanguageDetector.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>A LanguageModel object or a litellm model id string</source>
        <comment>LanguageDetector.options.model.help</comment>
        <translation>LanguageModel 对象或 litellm 模型 ID 字符串</translation>
    </message>
    <message>
        <source>Judge Preset</source>
        <comment>LanguageDetector.options.judge_preset</comment>
        <translation>判定器预设</translation>
    </message>
    <message>
        <source>A ready-made judge on a local server (sets model and api_base when model is empty)</source>
        <comment>LanguageDetector.options.judge_preset.help</comment>
        <translation>本地服务器上的现成判定器（model 为空时设置 model 和 api_base）</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>LanguageDetector.options.error_strategy</comment>
        <translation>出错策略</translation>
    </message>
    <message>
        <source>When the judge fails: go on without it (fail-open) or abort (fail-closed)</source>
        <comment>LanguageDetector.options.error_strategy.help</comment>
        <translation>判定器出错时：不用它继续（fail-open）或中止（fail-closed）</translation>
    </message>
    <message>
        <source>Api Base</source>
        <comment>LanguageDetector.options.api_base</comment>
        <translation>API 地址</translation>
    </message>
    <message>
        <source>The judge&apos;s server, for a local OpenAI-compatible one (http://localhost:11434/v1)</source>
        <comment>LanguageDetector.options.api_base.help</comment>
        <translation>判定器所在的服务器，用于本地 OpenAI 兼容服务器（http://localhost:11434/v1）</translation>
    </message>
    <message>
        <source>Timeout</source>
        <comment>LanguageDetector.options.timeout</comment>
        <translation>超时</translation>
    </message>
    <message>
        <source>Seconds the judge may take to answer</source>
        <comment>LanguageDetector.options.timeout.help</comment>
        <translation>判定器回答可用的秒数</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>LanguageDetector.options.threshold</comment>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Confidence needed to act on a detection</source>
        <comment>LanguageDetector.options.threshold.help</comment>
        <translation>对检测结果采取行动所需的置信度</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>LanguageDetector.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions appended to the judge&apos;s prompt</source>
        <comment>LanguageDetector.options.instructions.help</comment>
        <translation>追加到判定器提示词后的额外指令</translation>
    </message>
    <message>
        <source>Target Languages</source>
        <comment>LanguageDetector.options.target_languages</comment>
        <translation>目标语言</translation>
    </message>
    <message>
        <source>Accepted languages: English names or ISO 639-1 codes</source>
        <comment>LanguageDetector.options.target_languages.help</comment>
        <translation>接受的语言：英文名称或 ISO 639-1 代码</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>LanguageDetector.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>detect (tag only), translate (needs a model), block or warn</source>
        <comment>LanguageDetector.options.strategy.help</comment>
        <translation>detect（仅标记）、translate（需要模型）、block 或 warn</translation>
    </message>
    <message>
        <source>Preserve Original</source>
        <comment>LanguageDetector.options.preserve_original</comment>
        <translation>保留原文</translation>
    </message>
    <message>
        <source>Keep the original text in the metadata on translate</source>
        <comment>LanguageDetector.options.preserve_original.help</comment>
        <translation>翻译时在元数据中保留原文</translation>
    </message>
    <message>
        <source>Min Text Length</source>
        <comment>LanguageDetector.options.min_text_length</comment>
        <translation>最短文本长度</translation>
    </message>
    <message>
        <source>Shorter messages are not checked</source>
        <comment>LanguageDetector.options.min_text_length.help</comment>
        <translation>更短的消息不检查</translation>
    </message>
    <message>
        <source>Include Detection Details</source>
        <comment>LanguageDetector.options.include_detection_details</comment>
        <translation>包含检测详情</translation>
    </message>
    <message>
        <source>Add the top three candidates to the metadata</source>
        <comment>LanguageDetector.options.include_detection_details.help</comment>
        <translation>在元数据中加入前三个候选</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>LanguageDetector.options.last_message_only</comment>
        <translation>仅最后一条消息</translation>
    </message>
    <message>
        <source>Check only the last message</source>
        <comment>LanguageDetector.options.last_message_only.help</comment>
        <translation>只检查最后一条消息</translation>
    </message>
    <message>
        <source>Non-target language detected: {language} ({code}, confidence {confidence:.2f})</source>
        <comment>LanguageDetector.not_target</comment>
        <translation>检测到非目标语言：{language}（{code}，置信度 {confidence:.2f}）</translation>
    </message>
    <message>
        <source>Translation failed because the judge model call failed: {error}</source>
        <comment>LanguageDetector.judge_failed</comment>
        <translation>翻译失败，因为判定模型调用失败：{error}</translation>
    </message>
</context>
<context>
    <name>processor:LanguageDetectorOptions</name>
    <message>
        <source>name at least one target language</source>
        <comment>LanguageDetectorOptions.no_language</comment>
        <translation>请至少指定一种目标语言</translation>
    </message>
    <message>
        <source>unknown languages {languages}: use English names or ISO 639-1 codes</source>
        <comment>LanguageDetectorOptions.unknown_languages</comment>
        <translation>未知的语言 {languages}：请使用英文名称或 ISO 639-1 代码</translation>
    </message>
    <message>
        <source>model: the &apos;translate&apos; strategy needs a model</source>
        <comment>LanguageDetectorOptions.translate_needs_model</comment>
        <translation>model：&apos;translate&apos; 策略需要一个模型</translation>
    </message>
</context>
<context>
    <name>processor:ModelArmor</name>
    <message>
        <source>Google Model Armor</source>
        <comment>ModelArmor.name</comment>
        <translation>Google Model Armor</translation>
    </message>
    <message>
        <source>Sends each message to Google Cloud Model Armor (hosted) and blocks what its template&apos;s filters match.</source>
        <comment>ModelArmor.description</comment>
        <translation>将每条消息发送到 Google Cloud Model Armor（托管服务），并拦截其模板的过滤器匹配到的内容。</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <comment>ModelArmor.options.endpoint</comment>
        <translation>端点</translation>
    </message>
    <message>
        <source>Model Armor&apos;s regional address (the template&apos;s location); the access token is bound to it</source>
        <comment>ModelArmor.options.endpoint.help</comment>
        <translation>Model Armor 的区域地址（模板所在的位置）；访问令牌与它绑定</translation>
    </message>
    <message>
        <source>Time Limit</source>
        <comment>ModelArmor.options.time_limit</comment>
        <translation>时间限制</translation>
    </message>
    <message>
        <source>Seconds to wait for a verdict, waits for Retry-After included</source>
        <comment>ModelArmor.options.time_limit.help</comment>
        <translation>等待判定的秒数，包括按 Retry-After 等待的时间</translation>
    </message>
    <message>
        <source>On Failure</source>
        <comment>ModelArmor.options.on_failure</comment>
        <translation>失败时</translation>
    </message>
    <message>
        <source>When the service gives no verdict (time limit, error, rate limit): block, or let the text through</source>
        <comment>ModelArmor.options.on_failure.help</comment>
        <translation>服务未给出判定时（超时、出错、限流）：拦截，或放行文本</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>ModelArmor.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block or warn</source>
        <comment>ModelArmor.options.strategy.help</comment>
        <translation>block 或 warn</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>ModelArmor.options.last_message_only</comment>
        <translation>仅最后一条消息</translation>
    </message>
    <message>
        <source>Check only the last user message</source>
        <comment>ModelArmor.options.last_message_only.help</comment>
        <translation>只检查最后一条用户消息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>ModelArmor.options.check_tool_results</comment>
        <translation>检查工具结果</translation>
    </message>
    <message>
        <source>In the output lane: check tool results too</source>
        <comment>ModelArmor.options.check_tool_results.help</comment>
        <translation>在输出通道中：也检查工具结果</translation>
    </message>
    <message>
        <source>Template</source>
        <comment>ModelArmor.options.resource</comment>
        <translation>模板</translation>
    </message>
    <message>
        <source>The template: projects/PROJECT/locations/LOCATION/templates/ID</source>
        <comment>ModelArmor.options.resource.help</comment>
        <translation>模板：projects/PROJECT/locations/LOCATION/templates/ID</translation>
    </message>
    <message>
        <source>Check Answers</source>
        <comment>ModelArmor.options.check_answers</comment>
        <translation>检查回答</translation>
    </message>
    <message>
        <source>In the output lane: check the model&apos;s answer too</source>
        <comment>ModelArmor.options.check_answers.help</comment>
        <translation>在输出通道中：也检查模型的回答</translation>
    </message>
    <message>
        <source>{service} flagged the input: {categories} (score {score:.2f})</source>
        <comment>ModelArmor.flagged_input</comment>
        <translation>{service} 标记了输入：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the answer: {categories} (score {score:.2f})</source>
        <comment>ModelArmor.flagged_answer</comment>
        <translation>{service} 标记了回答：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the result of tool &apos;{tool}&apos;: {categories} (score {score:.2f})</source>
        <comment>ModelArmor.flagged_tool</comment>
        <translation>{service} 标记了工具“{tool}”的结果：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} gave no verdict within {seconds:g} s; blocked (fail-closed)</source>
        <comment>ModelArmor.timeout</comment>
        <translation>{service} 未在 {seconds:g} 秒内给出判定；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} is rate-limiting this key (HTTP 429); blocked (fail-closed)</source>
        <comment>ModelArmor.rate_limited</comment>
        <translation>{service} 正在限制此密钥的请求频率（HTTP 429）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} failed (HTTP {status}); blocked (fail-closed)</source>
        <comment>ModelArmor.server_error</comment>
        <translation>{service} 出错（HTTP {status}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} refused the API key for {host} (HTTP {status}); blocked (fail-closed)</source>
        <comment>ModelArmor.unauthorized</comment>
        <translation>{service} 拒绝了用于 {host} 的 API 密钥（HTTP {status}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} refused the request (HTTP {status}: {detail}); blocked (fail-closed)</source>
        <comment>ModelArmor.rejected</comment>
        <translation>{service} 拒绝了请求（HTTP {status}：{detail}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} at {host} cannot be reached ({detail}); blocked (fail-closed)</source>
        <comment>ModelArmor.unreachable</comment>
        <translation>无法连接位于 {host} 的 {service}（{detail}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} answered in a form it does not document; blocked (fail-closed)</source>
        <comment>ModelArmor.malformed</comment>
        <translation>{service} 返回了其文档中没有的格式；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>No API key for {service} at {host}: save one with the Key button, or set {variable}; blocked (fail-closed)</source>
        <comment>ModelArmor.no_key</comment>
        <translation>没有用于 {host} 上 {service} 的 API 密钥：用“密钥…”按钮保存一个，或设置 {variable}；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} has nothing to call: fill in its endpoint (and template); blocked (fail-closed)</source>
        <comment>ModelArmor.no_endpoint</comment>
        <translation>{service} 没有可调用的地址：请填写其端点（和模板）；已拦截（出错时拦截）</translation>
    </message>
</context>
<context>
    <name>processor:ModelArmorOptions</name>
    <message>
        <source>the template must read projects/PROJECT/locations/LOCATION/templates/ID</source>
        <comment>ModelArmorOptions.bad_template</comment>
        <translation>模板必须写成 projects/PROJECT/locations/LOCATION/templates/ID</translation>
    </message>
</context>
<context>
    <name>processor:ModerationOptions</name>
    <message>
        <source>name at least one category</source>
        <comment>ModerationOptions.no_category</comment>
        <translation>请至少指定一个类别</translation>
    </message>
    <message>
        <source>unknown categories {categories}; known: {known}</source>
        <comment>ModerationOptions.unknown_categories</comment>
        <translation>未知的类别 {categories}；可用类别：{known}</translation>
    </message>
</context>
<context>
    <name>processor:ModerationProcessor</name>
    <message>
        <source>Moderation</source>
        <comment>ModerationProcessor.name</comment>
        <translation>内容审核</translation>
    </message>
    <message>
        <source>Scores content in 11 moderation categories (model judge, or word lists offline).</source>
        <comment>ModerationProcessor.description</comment>
        <translation>按 11 个审核类别为内容打分（模型判定，或离线词表）。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>ModerationProcessor.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>A LanguageModel object or a litellm model id string</source>
        <comment>ModerationProcessor.options.model.help</comment>
        <translation>LanguageModel 对象或 litellm 模型 ID 字符串</translation>
    </message>
    <message>
        <source>Judge Preset</source>
        <comment>ModerationProcessor.options.judge_preset</comment>
        <translation>判定器预设</translation>
    </message>
    <message>
        <source>A ready-made judge on a local server (sets model and api_base when model is empty)</source>
        <comment>ModerationProcessor.options.judge_preset.help</comment>
        <translation>本地服务器上的现成判定器（model 为空时设置 model 和 api_base）</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>ModerationProcessor.options.error_strategy</comment>
        <translation>出错策略</translation>
    </message>
    <message>
        <source>When the judge fails: go on without it (fail-open) or abort (fail-closed)</source>
        <comment>ModerationProcessor.options.error_strategy.help</comment>
        <translation>判定器出错时：不用它继续（fail-open）或中止（fail-closed）</translation>
    </message>
    <message>
        <source>Api Base</source>
        <comment>ModerationProcessor.options.api_base</comment>
        <translation>API 地址</translation>
    </message>
    <message>
        <source>The judge&apos;s server, for a local OpenAI-compatible one (http://localhost:11434/v1)</source>
        <comment>ModerationProcessor.options.api_base.help</comment>
        <translation>判定器所在的服务器，用于本地 OpenAI 兼容服务器（http://localhost:11434/v1）</translation>
    </message>
    <message>
        <source>Timeout</source>
        <comment>ModerationProcessor.options.timeout</comment>
        <translation>超时</translation>
    </message>
    <message>
        <source>Seconds the judge may take to answer</source>
        <comment>ModerationProcessor.options.timeout.help</comment>
        <translation>判定器回答可用的秒数</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>ModerationProcessor.options.threshold</comment>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Flag a category scoring at least this</source>
        <comment>ModerationProcessor.options.threshold.help</comment>
        <translation>类别得分达到此值即标记</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>ModerationProcessor.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions appended to the judge&apos;s prompt</source>
        <comment>ModerationProcessor.options.instructions.help</comment>
        <translation>追加到判定器提示词后的额外指令</translation>
    </message>
    <message>
        <source>Categories</source>
        <comment>ModerationProcessor.options.categories</comment>
        <translation>类别</translation>
    </message>
    <message>
        <source>Categories to check</source>
        <comment>ModerationProcessor.options.categories.help</comment>
        <translation>要检查的类别</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>ModerationProcessor.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block, warn or filter</source>
        <comment>ModerationProcessor.options.strategy.help</comment>
        <translation>block、warn 或 filter</translation>
    </message>
    <message>
        <source>Include Scores</source>
        <comment>ModerationProcessor.options.include_scores</comment>
        <translation>包含分数</translation>
    </message>
    <message>
        <source>Add the scores to the abort reason and metadata</source>
        <comment>ModerationProcessor.options.include_scores.help</comment>
        <translation>在中止原因和元数据中加入分数</translation>
    </message>
    <message>
        <source>Chunk Window</source>
        <comment>ModerationProcessor.options.chunk_window</comment>
        <translation>数据块窗口</translation>
    </message>
    <message>
        <source>Stream, with a judge: earlier text parts judged with each one</source>
        <comment>ModerationProcessor.options.chunk_window.help</comment>
        <translation>流式（使用评判模型时）：每次评判时连同之前的文本部分一起评判</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>ModerationProcessor.options.last_message_only</comment>
        <translation>仅最后一条消息</translation>
    </message>
    <message>
        <source>Check only the last message</source>
        <comment>ModerationProcessor.options.last_message_only.help</comment>
        <translation>只检查最后一条消息</translation>
    </message>
    <message>
        <source>Word Lists</source>
        <comment>ModerationProcessor.options.word_lists</comment>
        <translation>词表</translation>
    </message>
    <message>
        <source>Offline mode: extra phrases per category (matched as whole words)</source>
        <comment>ModerationProcessor.options.word_lists.help</comment>
        <translation>离线模式：每个类别的额外短语（按整词匹配）</translation>
    </message>
    <message>
        <source>Use Default Word Lists</source>
        <comment>ModerationProcessor.options.use_default_word_lists</comment>
        <translation>使用默认词表</translation>
    </message>
    <message>
        <source>Offline mode: include the built-in phrases</source>
        <comment>ModerationProcessor.options.use_default_word_lists.help</comment>
        <translation>离线模式：包含内置短语</translation>
    </message>
    <message>
        <source>Content flagged for moderation. Categories: {categories}</source>
        <comment>ModerationProcessor.flagged</comment>
        <translation>内容被审核标记。类别：{categories}</translation>
    </message>
    <message>
        <source>Content flagged for moderation. Categories: {categories}. Reason: {reason}</source>
        <comment>ModerationProcessor.flagged_with_reason</comment>
        <translation>内容被审核标记。类别：{categories}。原因：{reason}</translation>
    </message>
    <message>
        <source>Content flagged for moderation. Categories: {categories}. Scores: {scores}</source>
        <comment>ModerationProcessor.flagged_with_scores</comment>
        <translation>内容被审核标记。类别：{categories}。分数：{scores}</translation>
    </message>
    <message>
        <source>Content flagged for moderation. Categories: {categories}. Reason: {reason}. Scores: {scores}</source>
        <comment>ModerationProcessor.flagged_with_reason_and_scores</comment>
        <translation>内容被审核标记。类别：{categories}。原因：{reason}。分数：{scores}</translation>
    </message>
    <message>
        <source>Moderation failed because the judge model call failed: {error}</source>
        <comment>ModerationProcessor.judge_failed</comment>
        <translation>内容审核失败，因为判定模型调用失败：{error}</translation>
    </message>
</context>
<context>
    <name>processor:OpenAIModeration</name>
    <message>
        <source>OpenAI moderation</source>
        <comment>OpenAIModeration.name</comment>
        <translation>OpenAI 内容审核</translation>
    </message>
    <message>
        <source>Sends each message to OpenAI&apos;s moderation endpoint (hosted) and blocks what it flags as harmful.</source>
        <comment>OpenAIModeration.description</comment>
        <translation>将每条消息发送到 OpenAI 的内容审核端点（托管服务），并拦截其标记为有害的内容。</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <comment>OpenAIModeration.options.endpoint</comment>
        <translation>端点</translation>
    </message>
    <message>
        <source>OpenAI&apos;s API base; the API key is bound to it</source>
        <comment>OpenAIModeration.options.endpoint.help</comment>
        <translation>OpenAI 的 API 基础地址；API 密钥与它绑定</translation>
    </message>
    <message>
        <source>Time Limit</source>
        <comment>OpenAIModeration.options.time_limit</comment>
        <translation>时间限制</translation>
    </message>
    <message>
        <source>Seconds to wait for a verdict, waits for Retry-After included</source>
        <comment>OpenAIModeration.options.time_limit.help</comment>
        <translation>等待判定的秒数，包括按 Retry-After 等待的时间</translation>
    </message>
    <message>
        <source>On Failure</source>
        <comment>OpenAIModeration.options.on_failure</comment>
        <translation>失败时</translation>
    </message>
    <message>
        <source>When the service gives no verdict (time limit, error, rate limit): block, or let the text through</source>
        <comment>OpenAIModeration.options.on_failure.help</comment>
        <translation>服务未给出判定时（超时、出错、限流）：拦截，或放行文本</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>OpenAIModeration.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block or warn</source>
        <comment>OpenAIModeration.options.strategy.help</comment>
        <translation>block 或 warn</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>OpenAIModeration.options.last_message_only</comment>
        <translation>仅最后一条消息</translation>
    </message>
    <message>
        <source>Check only the last user message</source>
        <comment>OpenAIModeration.options.last_message_only.help</comment>
        <translation>只检查最后一条用户消息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>OpenAIModeration.options.check_tool_results</comment>
        <translation>检查工具结果</translation>
    </message>
    <message>
        <source>In the output lane: check tool results too</source>
        <comment>OpenAIModeration.options.check_tool_results.help</comment>
        <translation>在输出通道中：也检查工具结果</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>OpenAIModeration.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>The moderation model</source>
        <comment>OpenAIModeration.options.model.help</comment>
        <translation>内容审核模型</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>OpenAIModeration.options.threshold</comment>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Flag a category scoring at least this (empty: the service&apos;s flags)</source>
        <comment>OpenAIModeration.options.threshold.help</comment>
        <translation>标记分数不低于此值的类别（留空：采用服务自己的标记）</translation>
    </message>
    <message>
        <source>Check Answers</source>
        <comment>OpenAIModeration.options.check_answers</comment>
        <translation>检查回答</translation>
    </message>
    <message>
        <source>In the output lane: check the model&apos;s answer too</source>
        <comment>OpenAIModeration.options.check_answers.help</comment>
        <translation>在输出通道中：也检查模型的回答</translation>
    </message>
    <message>
        <source>{service} flagged the input: {categories} (score {score:.2f})</source>
        <comment>OpenAIModeration.flagged_input</comment>
        <translation>{service} 标记了输入：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the answer: {categories} (score {score:.2f})</source>
        <comment>OpenAIModeration.flagged_answer</comment>
        <translation>{service} 标记了回答：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the result of tool &apos;{tool}&apos;: {categories} (score {score:.2f})</source>
        <comment>OpenAIModeration.flagged_tool</comment>
        <translation>{service} 标记了工具“{tool}”的结果：{categories}（分数 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} gave no verdict within {seconds:g} s; blocked (fail-closed)</source>
        <comment>OpenAIModeration.timeout</comment>
        <translation>{service} 未在 {seconds:g} 秒内给出判定；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} is rate-limiting this key (HTTP 429); blocked (fail-closed)</source>
        <comment>OpenAIModeration.rate_limited</comment>
        <translation>{service} 正在限制此密钥的请求频率（HTTP 429）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} failed (HTTP {status}); blocked (fail-closed)</source>
        <comment>OpenAIModeration.server_error</comment>
        <translation>{service} 出错（HTTP {status}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} refused the API key for {host} (HTTP {status}); blocked (fail-closed)</source>
        <comment>OpenAIModeration.unauthorized</comment>
        <translation>{service} 拒绝了用于 {host} 的 API 密钥（HTTP {status}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} refused the request (HTTP {status}: {detail}); blocked (fail-closed)</source>
        <comment>OpenAIModeration.rejected</comment>
        <translation>{service} 拒绝了请求（HTTP {status}：{detail}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} at {host} cannot be reached ({detail}); blocked (fail-closed)</source>
        <comment>OpenAIModeration.unreachable</comment>
        <translation>无法连接位于 {host} 的 {service}（{detail}）；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} answered in a form it does not document; blocked (fail-closed)</source>
        <comment>OpenAIModeration.malformed</comment>
        <translation>{service} 返回了其文档中没有的格式；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>No API key for {service} at {host}: save one with the Key button, or set {variable}; blocked (fail-closed)</source>
        <comment>OpenAIModeration.no_key</comment>
        <translation>没有用于 {host} 上 {service} 的 API 密钥：用“密钥…”按钮保存一个，或设置 {variable}；已拦截（出错时拦截）</translation>
    </message>
    <message>
        <source>{service} has nothing to call: fill in its endpoint (and template); blocked (fail-closed)</source>
        <comment>OpenAIModeration.no_endpoint</comment>
        <translation>{service} 没有可调用的地址：请填写其端点（和模板）；已拦截（出错时拦截）</translation>
    </message>
</context>
<context>
    <name>processor:PIIDetector</name>
    <message>
        <source>PII detector</source>
        <comment>PIIDetector.name</comment>
        <translation>个人信息检测器</translation>
    </message>
    <message>
        <source>Finds personal data offline (optionally with a model judge); blocks, warns, filters or redacts.</source>
        <comment>PIIDetector.description</comment>
        <translation>离线查找个人数据（可选用模型判定）；可拦截、警告、过滤或脱敏。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>PIIDetector.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>A LanguageModel object or a litellm model id string</source>
        <comment>PIIDetector.options.model.help</comment>
        <translation>LanguageModel 对象或 litellm 模型 ID 字符串</translation>
    </message>
    <message>
        <source>Judge Preset</source>
        <comment>PIIDetector.options.judge_preset</comment>
        <translation>判定器预设</translation>
    </message>
    <message>
        <source>A ready-made judge on a local server (sets model and api_base when model is empty)</source>
        <comment>PIIDetector.options.judge_preset.help</comment>
        <translation>本地服务器上的现成判定器（model 为空时设置 model 和 api_base）</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>PIIDetector.options.error_strategy</comment>
        <translation>出错策略</translation>
    </message>
    <message>
        <source>When the judge fails: go on without it (fail-open) or abort (fail-closed)</source>
        <comment>PIIDetector.options.error_strategy.help</comment>
        <translation>判定器出错时：不用它继续（fail-open）或中止（fail-closed）</translation>
    </message>
    <message>
        <source>Api Base</source>
        <comment>PIIDetector.options.api_base</comment>
        <translation>API 地址</translation>
    </message>
    <message>
        <source>The judge&apos;s server, for a local OpenAI-compatible one (http://localhost:11434/v1)</source>
        <comment>PIIDetector.options.api_base.help</comment>
        <translation>判定器所在的服务器，用于本地 OpenAI 兼容服务器（http://localhost:11434/v1）</translation>
    </message>
    <message>
        <source>Timeout</source>
        <comment>PIIDetector.options.timeout</comment>
        <translation>超时</translation>
    </message>
    <message>
        <source>Seconds the judge may take to answer</source>
        <comment>PIIDetector.options.timeout.help</comment>
        <translation>判定器回答可用的秒数</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>PIIDetector.options.threshold</comment>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Judge detections need this confidence</source>
        <comment>PIIDetector.options.threshold.help</comment>
        <translation>判定器的检测结果需达到此置信度</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>PIIDetector.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions appended to the judge&apos;s prompt</source>
        <comment>PIIDetector.options.instructions.help</comment>
        <translation>追加到判定器提示词后的额外指令</translation>
    </message>
    <message>
        <source>Detection Types</source>
        <comment>PIIDetector.options.detection_types</comment>
        <translation>检测类型</translation>
    </message>
    <message>
        <source>What to look for (name, address and date-of-birth need a model)</source>
        <comment>PIIDetector.options.detection_types.help</comment>
        <translation>要查找的内容（姓名、地址和出生日期需要模型）</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>PIIDetector.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block, warn, filter (drop) or redact</source>
        <comment>PIIDetector.options.strategy.help</comment>
        <translation>block、warn、filter（丢弃）或 redact</translation>
    </message>
    <message>
        <source>Redaction Method</source>
        <comment>PIIDetector.options.redaction_method</comment>
        <translation>脱敏方式</translation>
    </message>
    <message>
        <source>mask, hash, remove or placeholder</source>
        <comment>PIIDetector.options.redaction_method.help</comment>
        <translation>mask、hash、remove 或 placeholder</translation>
    </message>
    <message>
        <source>Preserve Format</source>
        <comment>PIIDetector.options.preserve_format</comment>
        <translation>保留格式</translation>
    </message>
    <message>
        <source>Masks keep the value&apos;s length and separators</source>
        <comment>PIIDetector.options.preserve_format.help</comment>
        <translation>掩码保留原值的长度和分隔符</translation>
    </message>
    <message>
        <source>Include Detections</source>
        <comment>PIIDetector.options.include_detections</comment>
        <translation>包含检测结果</translation>
    </message>
    <message>
        <source>Put the detected values in the tripwire metadata</source>
        <comment>PIIDetector.options.include_detections.help</comment>
        <translation>把检测到的值放入拦截元数据</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>PIIDetector.options.last_message_only</comment>
        <translation>仅最后一条消息</translation>
    </message>
    <message>
        <source>Check only the last message</source>
        <comment>PIIDetector.options.last_message_only.help</comment>
        <translation>只检查最后一条消息</translation>
    </message>
    <message>
        <source>Carry Over</source>
        <comment>PIIDetector.options.carry_over</comment>
        <translation>跨块保留</translation>
    </message>
    <message>
        <source>Stream: most characters held back between chunks</source>
        <comment>PIIDetector.options.carry_over.help</comment>
        <translation>流式：数据块之间最多暂扣的字符数</translation>
    </message>
    <message>
        <source>Buffer Size</source>
        <comment>PIIDetector.options.buffer_size</comment>
        <translation>缓冲区大小</translation>
    </message>
    <message>
        <source>Stream with a judge: longest segment held</source>
        <comment>PIIDetector.options.buffer_size.help</comment>
        <translation>流式且使用判定器时：暂扣的最长片段</translation>
    </message>
    <message>
        <source>PII detected. Types: {types}</source>
        <comment>PIIDetector.detected</comment>
        <translation>检测到个人信息。类型：{types}</translation>
    </message>
    <message>
        <source>PII detection failed because the judge model call failed: {error}</source>
        <comment>PIIDetector.judge_failed</comment>
        <translation>个人信息检测失败，因为判定模型调用失败：{error}</translation>
    </message>
</context>
<context>
    <name>processor:PIIDetectorOptions</name>
    <message>
        <source>name at least one detection type</source>
        <comment>PIIDetectorOptions.no_type</comment>
        <translation>请至少指定一种检测类型</translation>
    </message>
</context>
<context>
    <name>processor:PrefillErrorHandler</name>
    <message>
        <source>Prefill Error Handler</source>
        <comment>PrefillErrorHandler.name</comment>
        <translation>预填充错误处理</translation>
    </message>
    <message>
        <source>Retries once with a &apos;continue&apos; reminder when a provider refuses a prompt ending on the assistant.</source>
        <comment>PrefillErrorHandler.description</comment>
        <translation>当提供方拒绝以助手消息结尾的提示时，附上“continue”提醒重试一次。</translation>
    </message>
</context>
<context>
    <name>processor:PromptInjectionDetector</name>
    <message>
        <source>Prompt injection detector</source>
        <comment>PromptInjectionDetector.name</comment>
        <translation>提示注入检测器</translation>
    </message>
    <message>
        <source>A learned model offline, optional model judge; blocks, warns, filters or rewrites attacks.</source>
        <comment>PromptInjectionDetector.description</comment>
        <translation>离线使用训练好的模型，可选模型判定；可拦截、警告、过滤或改写攻击。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>PromptInjectionDetector.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>A LanguageModel object or a litellm model id string</source>
        <comment>PromptInjectionDetector.options.model.help</comment>
        <translation>LanguageModel 对象或 litellm 模型 ID 字符串</translation>
    </message>
    <message>
        <source>Judge Preset</source>
        <comment>PromptInjectionDetector.options.judge_preset</comment>
        <translation>判定器预设</translation>
    </message>
    <message>
        <source>A ready-made judge on a local server (sets model and api_base when model is empty)</source>
        <comment>PromptInjectionDetector.options.judge_preset.help</comment>
        <translation>本地服务器上的现成判定器（model 为空时设置 model 和 api_base）</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>PromptInjectionDetector.options.error_strategy</comment>
        <translation>出错策略</translation>
    </message>
    <message>
        <source>When the judge fails: go on without it (fail-open) or abort (fail-closed)</source>
        <comment>PromptInjectionDetector.options.error_strategy.help</comment>
        <translation>判定器出错时：不用它继续（fail-open）或中止（fail-closed）</translation>
    </message>
    <message>
        <source>Api Base</source>
        <comment>PromptInjectionDetector.options.api_base</comment>
        <translation>API 地址</translation>
    </message>
    <message>
        <source>The judge&apos;s server, for a local OpenAI-compatible one (http://localhost:11434/v1)</source>
        <comment>PromptInjectionDetector.options.api_base.help</comment>
        <translation>判定器所在的服务器，用于本地 OpenAI 兼容服务器（http://localhost:11434/v1）</translation>
    </message>
    <message>
        <source>Timeout</source>
        <comment>PromptInjectionDetector.options.timeout</comment>
        <translation>超时</translation>
    </message>
    <message>
        <source>Seconds the judge may take to answer</source>
        <comment>PromptInjectionDetector.options.timeout.help</comment>
        <translation>判定器回答可用的秒数</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>PromptInjectionDetector.options.threshold</comment>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>PromptInjectionDetector.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions appended to the judge&apos;s prompt</source>
        <comment>PromptInjectionDetector.options.instructions.help</comment>
        <translation>追加到判定器提示词后的额外指令</translation>
    </message>
    <message>
        <source>Detection Types</source>
        <comment>PromptInjectionDetector.options.detection_types</comment>
        <translation>检测类型</translation>
    </message>
    <message>
        <source>Which attacks to look for</source>
        <comment>PromptInjectionDetector.options.detection_types.help</comment>
        <translation>要查找哪些攻击</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>PromptInjectionDetector.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block, warn, filter (drop the message) or rewrite</source>
        <comment>PromptInjectionDetector.options.strategy.help</comment>
        <translation>block、warn、filter（丢弃消息）或 rewrite</translation>
    </message>
    <message>
        <source>Judge Format</source>
        <comment>PromptInjectionDetector.options.judge_format</comment>
        <translation>判定器格式</translation>
    </message>
    <message>
        <source>How the judge answers: json (any chat model) or a guard model&apos;s own format (llama-guard, prompt-guard, shieldgemma, qwen3guard)</source>
        <comment>PromptInjectionDetector.options.judge_format.help</comment>
        <translation>判定器的回答格式：json（任何聊天模型）或护栏模型自身的格式（llama-guard、prompt-guard、shieldgemma、qwen3guard）</translation>
    </message>
    <message>
        <source>Judge Mode</source>
        <comment>PromptInjectionDetector.options.judge_mode</comment>
        <translation>判定模式</translation>
    </message>
    <message>
        <source>always: the judge decides every text (Mastra&apos;s way); hybrid: the offline scores decide clear cases and the judge only the uncertain ones</source>
        <comment>PromptInjectionDetector.options.judge_mode.help</comment>
        <translation>always：每段文本都由判定器决定（Mastra 的做法）；hybrid：明确的情况由离线得分决定，判定器只处理不确定的情况</translation>
    </message>
    <message>
        <source>Offline scores: learned (the default: the trained model&apos;s calibrated score), heuristics (phrase signals) or both (the higher counts)</source>
        <comment>PromptInjectionDetector.options.offline_scorer.help</comment>
        <translation>离线评分：learned（默认：训练模型的校准分数）、heuristics（短语信号）或 both（取较高者）</translation>
    </message>
    <message>
        <source>Hybrid Band</source>
        <comment>PromptInjectionDetector.options.hybrid_band</comment>
        <translation>混合区间</translation>
    </message>
    <message>
        <source>Flag a text when its score reaches this. The learned model&apos;s score is calibrated: the chance that the text is an attack (0.7 flags what is at least 70 % likely); lower catches more, with more false alarms</source>
        <comment>PromptInjectionDetector.options.threshold.help</comment>
        <translation>文本得分达到此值时标记。学习模型的得分经过校准：即该文本是攻击的概率（0.7 会标记至少有 70% 可能是攻击的文本）；调低可拦截更多攻击，但误报也更多</translation>
    </message>
    <message>
        <source>hybrid: offline scores in [low, high) are uncertain and go to the judge; below low passes, at or above high is flagged without asking</source>
        <comment>PromptInjectionDetector.options.hybrid_band.help</comment>
        <translation>hybrid：离线得分在 [下限, 上限) 内视为不确定，交给判定器；低于下限直接通过，达到或高于上限不经询问直接标记</translation>
    </message>
    <message>
        <source>Offline Scorer</source>
        <comment>PromptInjectionDetector.options.offline_scorer</comment>
        <translation>离线评分方式</translation>
    </message>
    <message>
        <source>Include Scores</source>
        <comment>PromptInjectionDetector.options.include_scores</comment>
        <translation>包含分数</translation>
    </message>
    <message>
        <source>Put the per-type scores in the tripwire metadata</source>
        <comment>PromptInjectionDetector.options.include_scores.help</comment>
        <translation>把各类型的得分放入拦截元数据</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>PromptInjectionDetector.options.last_message_only</comment>
        <translation>仅最后一条消息</translation>
    </message>
    <message>
        <source>Check only the last message</source>
        <comment>PromptInjectionDetector.options.last_message_only.help</comment>
        <translation>只检查最后一条消息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>PromptInjectionDetector.options.check_tool_results</comment>
        <translation>检查工具结果</translation>
    </message>
    <message>
        <source>In the output lane: scan tool results too</source>
        <comment>PromptInjectionDetector.options.check_tool_results.help</comment>
        <translation>在输出通道中：同时扫描工具结果</translation>
    </message>
    <message>
        <source>Prompt injection detected. Types: {types}</source>
        <comment>PromptInjectionDetector.detected</comment>
        <translation>检测到提示注入。类型：{types}</translation>
    </message>
    <message>
        <source>Prompt injection detected. Types: {types}. Reason: {reason}</source>
        <comment>PromptInjectionDetector.detected_with_reason</comment>
        <translation>检测到提示注入。类型：{types}。原因：{reason}</translation>
    </message>
    <message>
        <source>Prompt injection detected. Types: {types} (in the result of tool &apos;{tool}&apos;)</source>
        <comment>PromptInjectionDetector.detected_in_tool</comment>
        <translation>检测到提示注入。类型：{types}（位于工具“{tool}”的结果中）</translation>
    </message>
    <message>
        <source>Prompt injection detected. Types: {types} (in the result of tool &apos;{tool}&apos;). Reason: {reason}</source>
        <comment>PromptInjectionDetector.detected_in_tool_with_reason</comment>
        <translation>检测到提示注入。类型：{types}（位于工具“{tool}”的结果中）。原因：{reason}</translation>
    </message>
    <message>
        <source>Prompt injection detection failed because the judge model call failed: {error}</source>
        <comment>PromptInjectionDetector.judge_failed</comment>
        <translation>提示注入检测失败，因为判定模型调用失败：{error}</translation>
    </message>
</context>
<context>
    <name>processor:PromptInjectionDetectorOptions</name>
    <message>
        <source>name at least one detection type</source>
        <comment>PromptInjectionDetectorOptions.no_type</comment>
        <translation>请至少指定一种检测类型</translation>
    </message>
    <message>
        <source>give two scores 0 &lt;= low &lt;= high &lt;= 1</source>
        <comment>PromptInjectionDetectorOptions.band_order</comment>
        <translation>请给出两个分数，满足 0 &lt;= 下限 &lt;= 上限 &lt;= 1</translation>
    </message>
</context>
<context>
    <name>processor:RegexFilter</name>
    <message>
        <source>Regex Filter</source>
        <comment>RegexFilter.name</comment>
        <translation>正则过滤器</translation>
    </message>
    <message>
        <source>Blocks, redacts or flags text matching regex rules and presets (PII, secrets, URLs); no model.</source>
        <comment>RegexFilter.description</comment>
        <translation>拦截、脱敏或标记与正则规则及预设（个人信息、密钥、URL）匹配的文本；无需模型。</translation>
    </message>
    <message>
        <source>Rules</source>
        <comment>RegexFilter.options.rules</comment>
        <translation>规则</translation>
    </message>
    <message>
        <source>Custom rules: a name, a pattern and a replacement.</source>
        <comment>RegexFilter.options.rules.help</comment>
        <translation>自定义规则：名称、模式和替换内容。</translation>
    </message>
    <message>
        <source>Presets</source>
        <comment>RegexFilter.options.presets</comment>
        <translation>预设</translation>
    </message>
    <message>
        <source>Built-in rule sets: pii (e-mails, phones, cards, SSNs, IBANs, IPs), secrets (API keys, tokens, private keys), urls.</source>
        <comment>RegexFilter.options.presets.help</comment>
        <translation>内置规则集：pii（电子邮件、电话、银行卡、社会安全号、IBAN、IP）、secrets（API 密钥、令牌、私钥）、urls。</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>RegexFilter.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block: abort the run; redact: replace matches; warn: log and report only.</source>
        <comment>RegexFilter.options.strategy.help</comment>
        <translation>block：中止运行；redact：替换匹配内容；warn：仅记录并报告。</translation>
    </message>
    <message>
        <source>Phase</source>
        <comment>RegexFilter.options.phase</comment>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Check the input, the output (stream and result), or both.</source>
        <comment>RegexFilter.options.phase.help</comment>
        <translation>检查输入、输出（流和结果），或两者都检查。</translation>
    </message>
    <message>
        <source>Include Redacted Values</source>
        <comment>RegexFilter.options.include_redacted_values</comment>
        <translation>包含脱敏前的值</translation>
    </message>
    <message>
        <source>Put the redacted text in violation reports (keep off unless the audit log is as protected as the data).</source>
        <comment>RegexFilter.options.include_redacted_values.help</comment>
        <translation>把被脱敏的文本放入违规报告（除非审计日志与数据同等受保护，否则请保持关闭）。</translation>
    </message>
    <message>
        <source>Stream Carryover Size</source>
        <comment>RegexFilter.options.stream_carryover_size</comment>
        <translation>流式跨块保留大小</translation>
    </message>
    <message>
        <source>Characters held back while streaming so a match split across chunks is caught whole; at least the longest match a rule can have.</source>
        <comment>RegexFilter.options.stream_carryover_size.help</comment>
        <translation>流式输出时暂扣的字符数，使跨数据块的匹配能被完整捕获；至少为规则可能匹配的最长长度。</translation>
    </message>
    <message>
        <source>Regex filter: blocked {context} matching patterns: {names}</source>
        <comment>RegexFilter.blocked</comment>
        <translation>正则过滤器：已拦截匹配以下模式的 {context}：{names}</translation>
    </message>
    <message>
        <source>Regex filter: matched patterns: {names}</source>
        <comment>RegexFilter.warn_report</comment>
        <translation>正则过滤器：匹配到以下模式：{names}</translation>
    </message>
</context>
<context>
    <name>processor:RegexFilterOptions</name>
    <message>
        <source>RegexFilter needs at least one rule or preset</source>
        <comment>RegexFilterOptions.needs_rule</comment>
        <translation>RegexFilter 至少需要一条规则或一个预设</translation>
    </message>
</context>
<context>
    <name>processor:ResponseCache</name>
    <message>
        <source>Response Cache</source>
        <comment>ResponseCache.name</comment>
        <translation>回答缓存</translation>
    </message>
    <message>
        <source>Replays a cached answer for a repeated prompt instead of calling the model again.</source>
        <comment>ResponseCache.description</comment>
        <translation>对重复的提示重放缓存的回答，而不再调用模型。</translation>
    </message>
    <message>
        <source>Ttl Seconds</source>
        <comment>ResponseCache.options.ttl_seconds</comment>
        <translation>有效期（秒）</translation>
    </message>
    <message>
        <source>How long an answer is kept (0: forever).</source>
        <comment>ResponseCache.options.ttl_seconds.help</comment>
        <translation>回答保留多久（0：永久）。</translation>
    </message>
    <message>
        <source>Scope</source>
        <comment>ResponseCache.options.scope</comment>
        <translation>范围</translation>
    </message>
    <message>
        <source>Who shares answers: one user (resource), one conversation (thread), or everyone (global).</source>
        <comment>ResponseCache.options.scope.help</comment>
        <translation>谁共享回答：一个用户（resource）、一个对话（thread）或所有人（global）。</translation>
    </message>
    <message>
        <source>Key</source>
        <comment>ResponseCache.options.key</comment>
        <translation>键</translation>
    </message>
    <message>
        <source>A fixed cache key for every call (normally computed).</source>
        <comment>ResponseCache.options.key.help</comment>
        <translation>所有调用使用的固定缓存键（通常自动计算）。</translation>
    </message>
    <message>
        <source>Agent Id</source>
        <comment>ResponseCache.options.agent_id</comment>
        <translation>智能体 ID</translation>
    </message>
    <message>
        <source>Part of the key, so two agents never share answers.</source>
        <comment>ResponseCache.options.agent_id.help</comment>
        <translation>作为键的一部分，使两个智能体永不共享回答。</translation>
    </message>
    <message>
        <source>Bust</source>
        <comment>ResponseCache.options.bust</comment>
        <translation>绕过缓存</translation>
    </message>
    <message>
        <source>Never read the cache; every answer is stored again.</source>
        <comment>ResponseCache.options.bust.help</comment>
        <translation>从不读取缓存；每个回答都重新存储。</translation>
    </message>
    <message>
        <source>Max Entries</source>
        <comment>ResponseCache.options.max_entries</comment>
        <translation>最大条目数</translation>
    </message>
    <message>
        <source>Capacity of the built-in in-memory cache.</source>
        <comment>ResponseCache.options.max_entries.help</comment>
        <translation>内置内存缓存的容量。</translation>
    </message>
</context>
<context>
    <name>processor:StreamErrorRetry</name>
    <message>
        <source>Stream Error Retry</source>
        <comment>StreamErrorRetry.name</comment>
        <translation>流错误重试</translation>
    </message>
    <message>
        <source>Retries model calls that failed transiently (429, 5xx, dropped streams); never 401/403.</source>
        <comment>StreamErrorRetry.description</comment>
        <translation>重试暂时性失败的模型调用（429、5xx、中断的流）；从不重试 401/403。</translation>
    </message>
    <message>
        <source>Max Retries</source>
        <comment>StreamErrorRetry.options.max_retries</comment>
        <translation>最大重试次数</translation>
    </message>
    <message>
        <source>How many times one failure may be retried.</source>
        <comment>StreamErrorRetry.options.max_retries.help</comment>
        <translation>一次失败最多可重试多少次。</translation>
    </message>
    <message>
        <source>Matchers</source>
        <comment>StreamErrorRetry.options.matchers</comment>
        <translation>匹配规则</translation>
    </message>
    <message>
        <source>Extra regular expressions (case-insensitive): an error whose message matches is retried.</source>
        <comment>StreamErrorRetry.options.matchers.help</comment>
        <translation>额外的正则表达式（不区分大小写）：消息与之匹配的错误会被重试。</translation>
    </message>
    <message>
        <source>Retry Unknown Errors</source>
        <comment>StreamErrorRetry.options.retry_unknown_errors</comment>
        <translation>重试未知错误</translation>
    </message>
    <message>
        <source>Retry any error except authentication and permission failures.</source>
        <comment>StreamErrorRetry.options.retry_unknown_errors.help</comment>
        <translation>重试除认证和权限失败以外的任何错误。</translation>
    </message>
    <message>
        <source>Delay Ms</source>
        <comment>StreamErrorRetry.options.delay_ms</comment>
        <translation>延迟（毫秒）</translation>
    </message>
    <message>
        <source>Wait before the first retry (no Retry-After).</source>
        <comment>StreamErrorRetry.options.delay_ms.help</comment>
        <translation>第一次重试前的等待时间（没有 Retry-After 时）。</translation>
    </message>
    <message>
        <source>Backoff</source>
        <comment>StreamErrorRetry.options.backoff</comment>
        <translation>退避倍数</translation>
    </message>
    <message>
        <source>Each later retry waits this many times longer.</source>
        <comment>StreamErrorRetry.options.backoff.help</comment>
        <translation>之后每次重试的等待时间乘以此倍数。</translation>
    </message>
    <message>
        <source>Max Delay Ms</source>
        <comment>StreamErrorRetry.options.max_delay_ms</comment>
        <translation>最大延迟（毫秒）</translation>
    </message>
    <message>
        <source>The longest computed wait.</source>
        <comment>StreamErrorRetry.options.max_delay_ms.help</comment>
        <translation>计算出的最长等待时间。</translation>
    </message>
    <message>
        <source>Max Retry After Ms</source>
        <comment>StreamErrorRetry.options.max_retry_after_ms</comment>
        <translation>最大 Retry-After（毫秒）</translation>
    </message>
    <message>
        <source>The longest wait a provider&apos;s Retry-After may impose.</source>
        <comment>StreamErrorRetry.options.max_retry_after_ms.help</comment>
        <translation>提供方的 Retry-After 最多可要求等待的时间。</translation>
    </message>
</context>
<context>
    <name>processor:StructuredOutput</name>
    <message>
        <source>Structured output</source>
        <comment>StructuredOutput.name</comment>
        <translation>结构化输出</translation>
    </message>
    <message>
        <source>Validates the final answer against a JSON schema or pydantic model; retries with feedback.</source>
        <comment>StructuredOutput.description</comment>
        <translation>按 JSON 模式或 pydantic 模型校验最终回答；附带反馈重试。</translation>
    </message>
    <message>
        <source>Schema</source>
        <comment>StructuredOutput.options.schema</comment>
        <translation>模式</translation>
    </message>
    <message>
        <source>A JSON schema (dict) or a pydantic model class</source>
        <comment>StructuredOutput.options.schema.help</comment>
        <translation>JSON 模式（dict）或 pydantic 模型类</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>StructuredOutput.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>Optional structuring model: rewrites invalid text into the schema</source>
        <comment>StructuredOutput.options.model.help</comment>
        <translation>可选的结构化模型：把无效文本改写成符合模式的内容</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>StructuredOutput.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions for the structuring model</source>
        <comment>StructuredOutput.options.instructions.help</comment>
        <translation>给结构化模型的额外指令</translation>
    </message>
    <message>
        <source>On Invalid</source>
        <comment>StructuredOutput.options.on_invalid</comment>
        <translation>无效时</translation>
    </message>
    <message>
        <source>retry (abort with feedback), warn (log) or fallback (use fallback_value)</source>
        <comment>StructuredOutput.options.on_invalid.help</comment>
        <translation>retry（附带反馈中止）、warn（记录）或 fallback（使用 fallback_value）</translation>
    </message>
    <message>
        <source>Fallback Value</source>
        <comment>StructuredOutput.options.fallback_value</comment>
        <translation>后备值</translation>
    </message>
    <message>
        <source>The object used when on_invalid is &apos;fallback&apos;</source>
        <comment>StructuredOutput.options.fallback_value.help</comment>
        <translation>on_invalid 为 fallback 时使用的对象</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>StructuredOutput.options.error_strategy</comment>
        <translation>出错策略</translation>
    </message>
    <message>
        <source>Structuring model failure: treat as invalid (fail-open) or abort</source>
        <comment>StructuredOutput.options.error_strategy.help</comment>
        <translation>结构化模型出错时：视为无效（fail-open）或中止</translation>
    </message>
    <message>
        <source>Structured output failed: the structuring model failed: {error}</source>
        <comment>StructuredOutput.structuring_failed</comment>
        <translation>结构化输出失败：结构化模型出错：{error}</translation>
    </message>
    <message>
        <source>The answer does not match the required JSON schema: {problems}</source>
        <comment>StructuredOutput.schema_mismatch</comment>
        <translation>回答不符合所要求的 JSON 模式：{problems}</translation>
    </message>
</context>
<context>
    <name>processor:StructuredOutputOptions</name>
    <message>
        <source>not a valid JSON schema: {error}</source>
        <comment>StructuredOutputOptions.bad_schema</comment>
        <translation>不是有效的 JSON Schema：{error}</translation>
    </message>
    <message>
        <source>must be a JSON schema (a dict) or a pydantic model class</source>
        <comment>StructuredOutputOptions.schema_kind</comment>
        <translation>必须是 JSON Schema（字典）或 pydantic 模型类</translation>
    </message>
    <message>
        <source>must be a model id string (e.g. &apos;openai/gpt-4o-mini&apos;) or a LanguageModel object</source>
        <comment>StructuredOutputOptions.model_kind</comment>
        <translation>必须是模型 ID 字符串（如 &apos;openai/gpt-4o-mini&apos;）或 LanguageModel 对象</translation>
    </message>
</context>
<context>
    <name>processor:SystemPromptScrubber</name>
    <message>
        <source>System prompt scrubber</source>
        <comment>SystemPromptScrubber.name</comment>
        <translation>系统提示词清除器</translation>
    </message>
    <message>
        <source>Catches the agent&apos;s own instructions leaking into its output; blocks, warns, filters or redacts.</source>
        <comment>SystemPromptScrubber.description</comment>
        <translation>捕捉智能体自身指令泄露到输出中的情况；可拦截、警告、过滤或脱敏。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>SystemPromptScrubber.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>A LanguageModel object or a litellm model id string</source>
        <comment>SystemPromptScrubber.options.model.help</comment>
        <translation>LanguageModel 对象或 litellm 模型 ID 字符串</translation>
    </message>
    <message>
        <source>Judge Preset</source>
        <comment>SystemPromptScrubber.options.judge_preset</comment>
        <translation>判定器预设</translation>
    </message>
    <message>
        <source>A ready-made judge on a local server (sets model and api_base when model is empty)</source>
        <comment>SystemPromptScrubber.options.judge_preset.help</comment>
        <translation>本地服务器上的现成判定器（model 为空时设置 model 和 api_base）</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>SystemPromptScrubber.options.error_strategy</comment>
        <translation>出错策略</translation>
    </message>
    <message>
        <source>When the judge fails: go on without it (fail-open) or abort (fail-closed)</source>
        <comment>SystemPromptScrubber.options.error_strategy.help</comment>
        <translation>判定器出错时：不用它继续（fail-open）或中止（fail-closed）</translation>
    </message>
    <message>
        <source>Api Base</source>
        <comment>SystemPromptScrubber.options.api_base</comment>
        <translation>API 地址</translation>
    </message>
    <message>
        <source>The judge&apos;s server, for a local OpenAI-compatible one (http://localhost:11434/v1)</source>
        <comment>SystemPromptScrubber.options.api_base.help</comment>
        <translation>判定器所在的服务器，用于本地 OpenAI 兼容服务器（http://localhost:11434/v1）</translation>
    </message>
    <message>
        <source>Timeout</source>
        <comment>SystemPromptScrubber.options.timeout</comment>
        <translation>超时</translation>
    </message>
    <message>
        <source>Seconds the judge may take to answer</source>
        <comment>SystemPromptScrubber.options.timeout.help</comment>
        <translation>判定器回答可用的秒数</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>SystemPromptScrubber.options.threshold</comment>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Judge confidence needed (with a model)</source>
        <comment>SystemPromptScrubber.options.threshold.help</comment>
        <translation>所需的判定置信度（使用模型时）</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>SystemPromptScrubber.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions appended to the judge&apos;s prompt</source>
        <comment>SystemPromptScrubber.options.instructions.help</comment>
        <translation>追加到判定器提示词后的额外指令</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>SystemPromptScrubber.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block, warn, filter (drop) or redact</source>
        <comment>SystemPromptScrubber.options.strategy.help</comment>
        <translation>block、warn、filter（丢弃）或 redact</translation>
    </message>
    <message>
        <source>Redaction Method</source>
        <comment>SystemPromptScrubber.options.redaction_method</comment>
        <translation>脱敏方式</translation>
    </message>
    <message>
        <source>How leaks are hidden</source>
        <comment>SystemPromptScrubber.options.redaction_method.help</comment>
        <translation>如何隐藏泄露内容</translation>
    </message>
    <message>
        <source>Placeholder Text</source>
        <comment>SystemPromptScrubber.options.placeholder_text</comment>
        <translation>占位文本</translation>
    </message>
    <message>
        <source>What replaces a leak (placeholder method)</source>
        <comment>SystemPromptScrubber.options.placeholder_text.help</comment>
        <translation>替换泄露内容的文本（placeholder 方式）</translation>
    </message>
    <message>
        <source>Custom Patterns</source>
        <comment>SystemPromptScrubber.options.custom_patterns</comment>
        <translation>自定义模式</translation>
    </message>
    <message>
        <source>Regular expressions that also count as leaks</source>
        <comment>SystemPromptScrubber.options.custom_patterns.help</comment>
        <translation>同样算作泄露的正则表达式</translation>
    </message>
    <message>
        <source>Min Overlap Words</source>
        <comment>SystemPromptScrubber.options.min_overlap_words</comment>
        <translation>最少重叠词数</translation>
    </message>
    <message>
        <source>Consecutive shared words that make a leak</source>
        <comment>SystemPromptScrubber.options.min_overlap_words.help</comment>
        <translation>构成泄露的连续相同词数</translation>
    </message>
    <message>
        <source>Include Detections</source>
        <comment>SystemPromptScrubber.options.include_detections</comment>
        <translation>包含检测结果</translation>
    </message>
    <message>
        <source>Put the leaked passages in the tripwire metadata</source>
        <comment>SystemPromptScrubber.options.include_detections.help</comment>
        <translation>把泄露的段落放入拦截元数据</translation>
    </message>
    <message>
        <source>Carry Over</source>
        <comment>SystemPromptScrubber.options.carry_over</comment>
        <translation>跨块保留</translation>
    </message>
    <message>
        <source>Stream: characters held back for custom patterns</source>
        <comment>SystemPromptScrubber.options.carry_over.help</comment>
        <translation>流式：为自定义模式暂扣的字符数</translation>
    </message>
    <message>
        <source>System prompt detected: {kinds}</source>
        <comment>SystemPromptScrubber.detected</comment>
        <translation>检测到系统提示词：{kinds}</translation>
    </message>
    <message>
        <source>System prompt detection failed because the judge model call failed: {error}</source>
        <comment>SystemPromptScrubber.judge_failed</comment>
        <translation>系统提示检测失败，因为判定模型调用失败：{error}</translation>
    </message>
</context>
<context>
    <name>processor:TokenLimiter</name>
    <message>
        <source>Token Limiter</source>
        <comment>TokenLimiter.name</comment>
        <translation>令牌限制器</translation>
    </message>
    <message>
        <source>Keeps the prompt within a token budget and caps the answer&apos;s tokens (truncate or abort).</source>
        <comment>TokenLimiter.description</comment>
        <translation>让提示保持在令牌预算内，并限制回答的令牌数（截断或中止）。</translation>
    </message>
    <message>
        <source>Limit</source>
        <comment>TokenLimiter.options.limit</comment>
        <translation>上限</translation>
    </message>
    <message>
        <source>The token budget (prompt or answer).</source>
        <comment>TokenLimiter.options.limit.help</comment>
        <translation>令牌预算（提示或回答）。</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>TokenLimiter.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>Over the output limit: drop the rest (truncate) or end the run (abort).</source>
        <comment>TokenLimiter.options.strategy.help</comment>
        <translation>超出输出上限时：丢弃其余部分（truncate）或结束运行（abort）。</translation>
    </message>
    <message>
        <source>Count Mode</source>
        <comment>TokenLimiter.options.count_mode</comment>
        <translation>计数方式</translation>
    </message>
    <message>
        <source>Count the whole answer so far (cumulative) or each chunk alone (part).</source>
        <comment>TokenLimiter.options.count_mode.help</comment>
        <translation>累计计算到目前为止的整个回答（cumulative），或单独计算每个数据块（part）。</translation>
    </message>
    <message>
        <source>Trim Mode</source>
        <comment>TokenLimiter.options.trim_mode</comment>
        <translation>裁剪方式</translation>
    </message>
    <message>
        <source>Prompt trimming: skip what does not fit and keep looking (best-fit), stop at the first message that does not fit (contiguous), or remove only remembered history (memory-only).</source>
        <comment>TokenLimiter.options.trim_mode.help</comment>
        <translation>提示裁剪：跳过放不下的并继续查找（best-fit）、在第一条放不下的消息处停止（contiguous），或只移除记忆中的历史（memory-only）。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>TokenLimiter.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>Model whose tokenizer counts tokens (e.g. gpt-4o); empty: the run&apos;s model.</source>
        <comment>TokenLimiter.options.model.help</comment>
        <translation>用其分词器计算令牌的模型（如 gpt-4o）；为空：使用本次运行的模型。</translation>
    </message>
    <message>
        <source>Token limit of {limit} exceeded (current: {current})</source>
        <comment>TokenLimiter.limit_exceeded</comment>
        <translation>超出 {limit} 个令牌的上限（当前：{current}）</translation>
    </message>
    <message>
        <source>TokenLimiter: there are no messages to send</source>
        <comment>TokenLimiter.no_messages</comment>
        <translation>TokenLimiter：没有可发送的消息</translation>
    </message>
    <message>
        <source>TokenLimiter: the system messages alone use {used} tokens, over the limit of {limit}</source>
        <comment>TokenLimiter.system_over_limit</comment>
        <translation>TokenLimiter：仅系统消息就用了 {used} 个令牌，超出 {limit} 的上限</translation>
    </message>
    <message>
        <source>TokenLimiter: no message fits in the limit of {limit} tokens ({used} used by system messages)</source>
        <comment>TokenLimiter.nothing_fits</comment>
        <translation>TokenLimiter：{limit} 个令牌的上限内放不下任何消息（系统消息已用 {used} 个）</translation>
    </message>
</context>
<context>
    <name>processor:ToolCallFilter</name>
    <message>
        <source>Tool Call Filter</source>
        <comment>ToolCallFilter.name</comment>
        <translation>工具调用过滤器</translation>
    </message>
    <message>
        <source>Leaves earlier tool calls and their results out of the prompt (history itself is untouched).</source>
        <comment>ToolCallFilter.description</comment>
        <translation>把较早的工具调用及其结果排除在提示之外（历史本身不变）。</translation>
    </message>
    <message>
        <source>Exclude</source>
        <comment>ToolCallFilter.options.exclude</comment>
        <translation>排除</translation>
    </message>
    <message>
        <source>Tool names whose calls are filtered; empty or unset: every tool.</source>
        <comment>ToolCallFilter.options.exclude.help</comment>
        <translation>要过滤其调用的工具名；为空或未设置：所有工具。</translation>
    </message>
    <message>
        <source>Filter After Tool Steps</source>
        <comment>ToolCallFilter.options.filter_after_tool_steps</comment>
        <translation>保留最近工具步数</translation>
    </message>
    <message>
        <source>Keep the tool calls of the last N tool steps (this call&apos;s included) and filter older ones; unset: filter only the history from before this call.</source>
        <comment>ToolCallFilter.options.filter_after_tool_steps.help</comment>
        <translation>保留最近 N 个工具步骤（含本次调用）的工具调用，过滤更早的；未设置：只过滤本次调用之前的历史。</translation>
    </message>
    <message>
        <source>Preserve Model Output</source>
        <comment>ToolCallFilter.options.preserve_model_output</comment>
        <translation>保留模型输出</translation>
    </message>
    <message>
        <source>Replace a filtered call and result by the text &apos;&lt;tool&gt; result: &lt;output&gt;&apos;.</source>
        <comment>ToolCallFilter.options.preserve_model_output.help</comment>
        <translation>把被过滤的调用和结果替换为文本“&lt;tool&gt; result: &lt;output&gt;”。</translation>
    </message>
</context>
<context>
    <name>processor:UnicodeNormalizer</name>
    <message>
        <source>Unicode Normalizer</source>
        <comment>UnicodeNormalizer.name</comment>
        <translation>Unicode 规范化</translation>
    </message>
    <message>
        <source>NFKC-normalises input text, optionally strips invisible control characters, tidies whitespace.</source>
        <comment>UnicodeNormalizer.description</comment>
        <translation>对输入文本做 NFKC 规范化，可选去除不可见的控制字符，并整理空白。</translation>
    </message>
    <message>
        <source>Strip Control Chars</source>
        <comment>UnicodeNormalizer.options.strip_control_chars</comment>
        <translation>去除控制字符</translation>
    </message>
    <message>
        <source>Remove control and invisible format characters (tab, line feed and carriage return stay).</source>
        <comment>UnicodeNormalizer.options.strip_control_chars.help</comment>
        <translation>去除控制字符和不可见的格式字符（制表符、换行符和回车符保留）。</translation>
    </message>
    <message>
        <source>Preserve Emojis</source>
        <comment>UnicodeNormalizer.options.preserve_emojis</comment>
        <translation>保留表情符号</translation>
    </message>
    <message>
        <source>When stripping, keep the zero-width joiners and variation selectors emoji sequences need.</source>
        <comment>UnicodeNormalizer.options.preserve_emojis.help</comment>
        <translation>去除时保留表情符号序列所需的零宽连接符和变体选择符。</translation>
    </message>
    <message>
        <source>Collapse Whitespace</source>
        <comment>UnicodeNormalizer.options.collapse_whitespace</comment>
        <translation>合并空白</translation>
    </message>
    <message>
        <source>Turn CRLF/CR into LF, collapse runs of line feeds to one and runs of spaces/tabs to one space.</source>
        <comment>UnicodeNormalizer.options.collapse_whitespace.help</comment>
        <translation>把 CRLF/CR 转为 LF，将连续换行合并为一个，连续空格/制表符合并为一个空格。</translation>
    </message>
    <message>
        <source>Trim</source>
        <comment>UnicodeNormalizer.options.trim</comment>
        <translation>去除首尾空白</translation>
    </message>
    <message>
        <source>Remove leading and trailing whitespace.</source>
        <comment>UnicodeNormalizer.options.trim.help</comment>
        <translation>去除开头和结尾的空白。</translation>
    </message>
    <message>
        <source>Preserve CJK Punctuation</source>
        <comment>UnicodeNormalizer.options.preserve_cjk_punctuation</comment>
        <translation>保留中日韩标点</translation>
    </message>
    <message>
        <source>Keep full-width punctuation (，：！？（）……) as written; full-width letters and digits are still folded.</source>
        <comment>UnicodeNormalizer.options.preserve_cjk_punctuation.help</comment>
        <translation>按原样保留全角标点（，：！？（）……）；全角字母和数字仍会折叠。</translation>
    </message>
</context>
<context>
    <name>provider:anthropic</name>
    <message>
        <source>Anthropic</source>
        <comment>anthropic.label</comment>
        <translation>Anthropic</translation>
    </message>
</context>
<context>
    <name>provider:deepseek</name>
    <message>
        <source>DeepSeek</source>
        <comment>deepseek.label</comment>
        <translation>DeepSeek（深度求索）</translation>
    </message>
</context>
<context>
    <name>provider:demo</name>
    <message>
        <source>Demo (offline)</source>
        <comment>demo.label</comment>
        <translation>演示（离线）</translation>
    </message>
</context>
<context>
    <name>provider:gemini</name>
    <message>
        <source>Google Gemini</source>
        <comment>gemini.label</comment>
        <translation>Google Gemini</translation>
    </message>
</context>
<context>
    <name>provider:groq</name>
    <message>
        <source>Groq</source>
        <comment>groq.label</comment>
        <translation>Groq</translation>
    </message>
</context>
<context>
    <name>provider:lm_studio</name>
    <message>
        <source>LM Studio</source>
        <comment>lm_studio.label</comment>
        <translation>LM Studio</translation>
    </message>
</context>
<context>
    <name>provider:mistral</name>
    <message>
        <source>Mistral</source>
        <comment>mistral.label</comment>
        <translation>Mistral</translation>
    </message>
</context>
<context>
    <name>provider:ollama</name>
    <message>
        <source>Ollama</source>
        <comment>ollama.label</comment>
        <translation>Ollama</translation>
    </message>
</context>
<context>
    <name>provider:ollama_chat</name>
    <message>
        <source>Ollama (chat API)</source>
        <comment>ollama_chat.label</comment>
        <translation>Ollama（聊天 API）</translation>
    </message>
</context>
<context>
    <name>provider:openai</name>
    <message>
        <source>OpenAI</source>
        <comment>openai.label</comment>
        <translation>OpenAI</translation>
    </message>
</context>
<context>
    <name>provider:openrouter</name>
    <message>
        <source>OpenRouter</source>
        <comment>openrouter.label</comment>
        <translation>OpenRouter</translation>
    </message>
</context>
<context>
    <name>provider:together_ai</name>
    <message>
        <source>Together AI</source>
        <comment>together_ai.label</comment>
        <translation>Together AI</translation>
    </message>
</context>
<context>
    <name>provider:vertex_ai</name>
    <message>
        <source>Vertex AI</source>
        <comment>vertex_ai.label</comment>
        <translation>Vertex AI</translation>
    </message>
</context>
</TS>
