<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_TW" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <source>About Processor Studio</source>
        <translation>關於 Processor Studio</translation>
    </message>
    <message>
        <source>Design LLM agents and test their guardrails by hand.</source>
        <translation>設計大語言模型代理，並親手測試它們的護欄。</translation>
    </message>
    <message>
        <source>Your threads and designs are kept in&lt;br&gt;{folder}</source>
        <translation>你的對話和設計儲存在&lt;br&gt;{folder}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Bundled components&lt;/b&gt; and their licences</source>
        <translation>&lt;b&gt;內建元件&lt;/b&gt;及其許可證</translation>
    </message>
    <message>
        <source>Component</source>
        <translation>元件</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>許可證</translation>
    </message>
    <message>
        <source>Qt and PySide6 are used under the GNU LGPL v3; their source is available from qt.io.</source>
        <translation>Qt 和 PySide6 依據 GNU LGPL v3 使用；其原始碼可從 qt.io 取得。</translation>
    </message>
    <message>
        <source>The licence texts are in {file}</source>
        <translation>許可證全文見 {file}</translation>
    </message>
    <message>
        <source>LGPL-3.0-only (as shipped by PySide6)</source>
        <translation>LGPL-3.0-only（隨 PySide6 發行）</translation>
    </message>
</context>
<context>
    <name>AgentSettings</name>
    <message>
        <source>What the agent is for, how it should answer…</source>
        <translation>代理的用途、應如何回答……</translation>
    </message>
    <message>
        <source>A litellm model id, provider/model (e.g. openai/gpt-4o-mini), or demo (offline)</source>
        <translation>litellm 模型 ID，格式為 供應商/模型（如 openai/gpt-4o-mini），或 demo（離線）</translation>
    </message>
    <message>
        <source>provider default</source>
        <translation>供應商預設值</translation>
    </message>
    <message>
        <source>Other model settings as JSON, e.g. {&quot;seed&quot;: 7}</source>
        <translation>其他模型設定（JSON），如 {&quot;seed&quot;: 7}</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未設定</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名稱(&amp;N)</translation>
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
        <translation>API 位址(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Temperature</source>
        <translation>溫度(&amp;T)</translation>
    </message>
    <message>
        <source>Max to&amp;kens</source>
        <translation>最大詞元數(&amp;K)</translation>
    </message>
    <message>
        <source>Top &amp;p</source>
        <translation>核取樣 Top &amp;p</translation>
    </message>
    <message>
        <source>Other model settings</source>
        <translation>其他模型設定</translation>
    </message>
    <message>
        <source>Too&amp;ls</source>
        <translation>工具(&amp;L)</translation>
    </message>
    <message>
        <source>MCP ser&amp;vers</source>
        <translation>MCP 伺服器(&amp;V)</translation>
    </message>
    <message>
        <source>Processor &amp;retries</source>
        <translation>處理器重試次數(&amp;R)</translation>
    </message>
    <message>
        <source>Max &amp;steps</source>
        <translation>最大步數(&amp;S)</translation>
    </message>
    <message>
        <source>{url} for a local server</source>
        <translation>{url}（本機伺服器）</translation>
    </message>
    <message>
        <source>Local or self-hosted servers only</source>
        <translation>僅限本機或自託管伺服器</translation>
    </message>
    <message>
        <source>Only for local or self-hosted servers (Ollama, LM Studio)</source>
        <translation>僅用於本機或自託管伺服器（Ollama、LM Studio）</translation>
    </message>
    <message>
        <source>Not valid JSON: {error}</source>
        <translation>不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <source>Expected a JSON object, e.g. {&quot;seed&quot;: 7}</source>
        <translation>應為 JSON 物件，如 {&quot;seed&quot;: 7}</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>A processor plug-in was skipped: {error}</source>
        <translation>已跳過一個處理器外掛：{error}</translation>
    </message>
    <message>
        <source>Processor Studio cannot open its data</source>
        <translation>Processor Studio 無法開啟其資料</translation>
    </message>
</context>
<context>
    <name>ChainEditor</name>
    <message>
        <source>Not installed: cannot run</source>
        <translation>未安裝：無法執行</translation>
    </message>
    <message>
        <source>Invalid: {problem}</source>
        <translation>無效：{problem}</translation>
    </message>
    <message>
        <source>enabled</source>
        <translation>已啟用</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已停用</translation>
    </message>
    <message>
        <source>, invalid</source>
        <translation>，無效</translation>
    </message>
    <message>
        <source>Only processors from the palette or from a chain can be dropped here</source>
        <translation>只能把處理器面板或鏈中的處理器拖放到這裡</translation>
    </message>
    <message>
        <source>(disabled: skipped when the agent runs)</source>
        <translation>（已停用：代理執行時跳過）</translation>
    </message>
    <message>
        <source>There is no {lane!r} lane: the lanes are {lanes}</source>
        <translation>沒有 {lane!r} 通道：現有通道為 {lanes}</translation>
    </message>
    <message>
        <source>{type} is not in the catalogue (is the plug-in or file that provides it installed?)</source>
        <translation>{type} 不在目錄中（提供它的外掛或檔案是否已安裝？）</translation>
    </message>
    <message>
        <source>{type} cannot go in the {lane} lane: it implements no processor hook</source>
        <translation>{type} 不能放入{lane}通道：它未實作任何處理器掛鉤</translation>
    </message>
    <message>
        <source>{type} cannot go in the {lane} lane: it implements {hooks}; the {lane} lane runs {runs}</source>
        <translation>{type} 不能放入{lane}通道：它實作的是 {hooks}；{lane}通道執行的是 {runs}</translation>
    </message>
    <message>
        <source>{items} or {last}</source>
        <translation>{items} 或 {last}</translation>
    </message>
    <message>
        <source>Drop input processors here</source>
        <translation>將輸入處理器拖放到這裡</translation>
    </message>
    <message>
        <source>Drop output processors here</source>
        <translation>將輸出處理器拖放到這裡</translation>
    </message>
    <message>
        <source>Drop error processors here</source>
        <translation>將錯誤處理器拖放到這裡</translation>
    </message>
    <message>
        <source>{lane} chain</source>
        <translation>{lane}鏈</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>復原(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Chain editor message</source>
        <translation>鏈編輯器訊息</translation>
    </message>
    <message>
        <source>Hooks run from this lane: {hooks}</source>
        <translation>此通道執行的掛鉤：{hooks}</translation>
    </message>
    <message>
        <source>Enable/Disable</source>
        <translation>啟用/停用</translation>
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
        <translation>移到上一個通道</translation>
    </message>
    <message>
        <source>Move to Next Lane</source>
        <translation>移到下一個通道</translation>
    </message>
</context>
<context>
    <name>ChatDocument</name>
    <message>
        <source>● ● ●  writing…</source>
        <translation>● ● ●  正在輸入……</translation>
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
        <translation>✖ 錯誤</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>a processor asked for another try</source>
        <translation>某個處理器要求重試</translation>
    </message>
    <message>
        <source>↻ Retried:</source>
        <translation>↻ 已重試：</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>執行中……</translation>
    </message>
    <message>
        <source>✔ done</source>
        <translation>✔ 完成</translation>
    </message>
    <message>
        <source>✖ failed</source>
        <translation>✖ 失敗</translation>
    </message>
    <message>
        <source>⊘ blocked by {0}</source>
        <translation>⊘ 被 {0} 攔截</translation>
    </message>
    <message>
        <source>⊘ blocked by a processor</source>
        <translation>⊘ 被某個處理器攔截</translation>
    </message>
    <message>
        <source>changed for the model</source>
        <translation>已為模型修改</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>引數</translation>
    </message>
    <message>
        <source>Tool returned</source>
        <translation>工具返回</translation>
    </message>
    <message>
        <source>Given to the model (after process_tool_result)</source>
        <translation>交給模型的內容（經 process_tool_result 處理後）</translation>
    </message>
    <message>
        <source>Result (given to the model)</source>
        <translation>結果（交給模型的內容）</translation>
    </message>
    <message>
        <source>Tool returned (not given to the model)</source>
        <translation>工具返回（未交給模型）</translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation>已攔截</translation>
    </message>
    <message>
        <source>A tripwire of {0} kept this result from the model.</source>
        <translation>{0} 的攔截使模型未看到此結果。</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>錯誤</translation>
    </message>
    <message>
        <source>⚠ Tripwire</source>
        <translation>⚠ 觸發攔截</translation>
    </message>
    <message>
        <source>processor</source>
        <translation>處理器</translation>
    </message>
    <message>
        <source>(retry asked)</source>
        <translation>（要求重試）</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>中繼資料</translation>
    </message>
</context>
<context>
    <name>ChatItems</name>
    <message>
        <source>unknown error</source>
        <translation>未知錯誤</translation>
    </message>
    <message>
        <source>Model call failed ({where}): {error}</source>
        <translation>模型呼叫失敗（{where}）：{error}</translation>
    </message>
    <message>
        <source>Model call failed: {error}</source>
        <translation>模型呼叫失敗：{error}</translation>
    </message>
    <message>
        <source>The pattern of rule &apos;{rule}&apos; took longer than {seconds} s on a text of {length} characters (it backtracks catastrophically); the run was stopped</source>
        <translation>規則「{rule}」的模式在 {length} 個字元的文字上執行超過 {seconds} 秒（發生災難性回溯），執行已停止</translation>
    </message>
    <message>
        <source>{error} (processor &apos;{processor}&apos;, {hook})</source>
        <translation>{error}（處理器「{processor}」，{hook}）</translation>
    </message>
    <message>
        <source>{error} (processor &apos;{processor}&apos;)</source>
        <translation>{error}（處理器「{processor}」）</translation>
    </message>
    <message>
        <source>(%n more character(s))</source>
        <translation>（還有 %n 個字元）</translation>
    </message>
    <message>
        <source>unknown model</source>
        <translation>未知模型</translation>
    </message>
    <message>
        <source>{tokens} tokens ({input} in, {output} out)</source>
        <translation>{tokens} 個詞元（輸入 {input}，輸出 {output}）</translation>
    </message>
    <message>
        <source>tokens not reported</source>
        <translation>未報告詞元數</translation>
    </message>
    <message>
        <source>cost unknown</source>
        <translation>費用未知</translation>
    </message>
    <message>
        <source>first text {time}</source>
        <translation>首個文字 {time}</translation>
    </message>
    <message>
        <source>no text</source>
        <translation>無文字</translation>
    </message>
    <message>
        <source>total {time}</source>
        <translation>總計 {time}</translation>
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
        <translation>觸發攔截（{processor}）：{reason}</translation>
    </message>
    <message>
        <source>Tripwire: {reason}</source>
        <translation>觸發攔截：{reason}</translation>
    </message>
    <message>
        <source>Error: {error}</source>
        <translation>錯誤：{error}</translation>
    </message>
</context>
<context>
    <name>ChatListView</name>
    <message>
        <source>Show this tripwire in the inspector</source>
        <translation>在檢查器中顯示此攔截</translation>
    </message>
    <message>
        <source>Show or hide the call&apos;s details</source>
        <translation>顯示或隱藏此呼叫的詳情</translation>
    </message>
</context>
<context>
    <name>ChatQueue</name>
    <message>
        <source>Queued — sent when the reply ends</source>
        <translation>已排隊——回覆結束後傳送</translation>
    </message>
    <message>
        <source>Remove this message from the queue</source>
        <translation>從佇列中移除此訊息</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>&lt;h3&gt;Start the conversation&lt;/h3&gt;Type below, or try one of these:</source>
        <translation>&lt;h3&gt;開始對話&lt;/h3&gt;在下方輸入，或試試以下內容：</translation>
    </message>
    <message>
        <source>Message the agent — Enter sends, Shift+Enter adds a line</source>
        <translation>給代理發訊息——Enter 傳送，Shift+Enter 換行</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>傳送</translation>
    </message>
    <message>
        <source>Send (Enter)</source>
        <translation>傳送（Enter）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the reply (Esc)</source>
        <translation>停止回覆（Esc）</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>複製</translation>
    </message>
    <message>
        <source>Edit and resend</source>
        <translation>編輯並重新傳送</translation>
    </message>
    <message>
        <source>Resend</source>
        <translation>重新傳送</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>排隊</translation>
    </message>
    <message>
        <source>Queue: sent when the reply ends (Enter)</source>
        <translation>排隊：回覆結束後傳送（Enter）</translation>
    </message>
</context>
<context>
    <name>Connection</name>
    <message>
        <source>No API key is set for {provider}: save one above (or set the provider&apos;s environment variable).</source>
        <translation>尚未為 {provider} 設定 API 金鑰：請在上方儲存一個（或設定該供應商的環境變數）。</translation>
    </message>
    <message>
        <source>No answer within {seconds} s from {where}.</source>
        <translation>{where} 在 {seconds} 秒內沒有回應。</translation>
    </message>
    <message>
        <source>Failed — {error}</source>
        <translation>失敗——{error}</translation>
    </message>
    <message>
        <source>Connected to {model} — it replied “{reply}”</source>
        <translation>已連線到 {model}——它回覆了「{reply}」</translation>
    </message>
    <message>
        <source>Connected to {model}</source>
        <translation>已連線到 {model}</translation>
    </message>
</context>
<context>
    <name>DebugController</name>
    <message>
        <source>No run is paused.</source>
        <translation>沒有暫停的執行。</translation>
    </message>
    <message>
        <source>a chunk is a JSON object</source>
        <translation>資料塊必須是一個 JSON 物件</translation>
    </message>
    <message>
        <source>The chunk is not valid: {0}</source>
        <translation>資料塊無效：{0}</translation>
    </message>
    <message>
        <source>The chunk must stay a {0} chunk.</source>
        <translation>資料塊必須仍是 {0} 類型的資料塊。</translation>
    </message>
    <message>
        <source>The state is not valid JSON: {0}</source>
        <translation>狀態不是有效的 JSON：{0}</translation>
    </message>
    <message>
        <source>The state is a JSON object.</source>
        <translation>狀態必須是一個 JSON 物件。</translation>
    </message>
</context>
<context>
    <name>DebugPanel</name>
    <message>
        <source>any hook</source>
        <translation>任意掛鉤</translation>
    </message>
    <message>
        <source>any processor (an id, e.g. pii-detector)</source>
        <translation>任意處理器（填 ID，例如 pii-detector）</translation>
    </message>
    <message>
        <source>any chunk type (e.g. text-delta)</source>
        <translation>任意資料塊類型（例如 text-delta）</translation>
    </message>
    <message>
        <source>any text</source>
        <translation>任意文字</translation>
    </message>
    <message>
        <source>any step</source>
        <translation>任意步驟</translation>
    </message>
    <message>
        <source>Add breakpoint</source>
        <translation>新增中斷點</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Hook</source>
        <translation>掛鉤</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>處理器</translation>
    </message>
    <message>
        <source>Chunk type</source>
        <translation>資料塊類型</translation>
    </message>
    <message>
        <source>Text contains</source>
        <translation>文字包含</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>單步</translation>
    </message>
    <message>
        <source>No run is paused. Set a breakpoint, then send a message.</source>
        <translation>沒有暫停的執行。請先設定中斷點，再傳送訊息。</translation>
    </message>
    <message>
        <source>Step</source>
        <comment>the number of the step to pause in</comment>
        <translation>步驟</translation>
    </message>
    <message>
        <source>The chunk the processor is about to receive (JSON)</source>
        <translation>處理器即將收到的資料塊（JSON）</translation>
    </message>
    <message>
        <source>The processor&apos;s state (JSON)</source>
        <translation>處理器的狀態（JSON）</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>繼續</translation>
    </message>
    <message>
        <source>Go on and pause again before the very next processor call</source>
        <translation>繼續執行，並在下一次處理器呼叫前再次暫停</translation>
    </message>
    <message>
        <source>Abort the run</source>
        <translation>中止執行</translation>
    </message>
    <message>
        <source>&lt;b&gt;Breakpoints&lt;/b&gt;</source>
        <translation>&lt;b&gt;中斷點&lt;/b&gt;</translation>
    </message>
    <message>
        <source>any processor</source>
        <translation>任意處理器</translation>
    </message>
    <message>
        <source>chunk {0}</source>
        <translation>資料塊 {0}</translation>
    </message>
    <message>
        <source>text contains {0}</source>
        <translation>文字包含 {0}</translation>
    </message>
    <message>
        <source>step {0}</source>
        <translation>步驟 {0}</translation>
    </message>
    <message>
        <source> (step {0})</source>
        <translation>（步驟 {0}）</translation>
    </message>
    <message>
        <source>Paused before {0}.{1}{2}: edit what it receives or its state, then continue.</source>
        <translation>已在 {0}.{1}{2} 之前暫停：可編輯它將收到的內容或它的狀態，然後繼續。</translation>
    </message>
    <message>
        <source>Messages: {0}</source>
        <translation>訊息：{0}</translation>
    </message>
    <message>
        <source>This state holds objects that are not JSON: it can be read, not edited.</source>
        <translation>此狀態包含非 JSON 物件：只能檢視，不能編輯。</translation>
    </message>
    <message>
        <source>The run goes on.</source>
        <translation>執行繼續。</translation>
    </message>
</context>
<context>
    <name>DesignError</name>
    <message>
        <source>{lane_title}, #{position} ({type}): Invalid options for {type}: {options}</source>
        <translation>{lane_title}，第 {position} 個（{type}）：{type} 的選項無效：{options}</translation>
    </message>
    <message>
        <source>{lane_title}, #{position} ({type}): {error}</source>
        <translation>{lane_title}，第 {position} 個（{type}）：{error}</translation>
    </message>
    <message>
        <source>{lane_title}, #{position} ({type}): another processor of this agent has the id &apos;{id}&apos; and this one&apos;s id cannot be changed (two processors with one id would share their state); remove one of them</source>
        <translation>{lane_title}，第 {position} 個（{type}）：此代理中已有另一個處理器的 id 為「{id}」，而這個處理器的 id 無法變更（同一 id 的兩個處理器會共用狀態）；請移除其中一個</translation>
    </message>
    <message>
        <source>model.model: choose a model (a litellm id such as &apos;openai/gpt-4o-mini&apos;, or &apos;demo&apos;)</source>
        <translation>model.model：請選擇一個模型（litellm 模型 ID，如 &apos;openai/gpt-4o-mini&apos;，或 &apos;demo&apos;）</translation>
    </message>
    <message>
        <source>model.model: the provider &apos;{provider}&apos; could not build &apos;{model}&apos;: {error}</source>
        <translation>model.model：供應商 &apos;{provider}&apos; 無法建立 &apos;{model}&apos;：{error}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: tools load only from the tools folder ({folder}); &apos;{file}&apos; is an absolute path</source>
        <translation>工具 &apos;{name}&apos;：工具只能從工具資料夾（{folder}）載入；&apos;{file}&apos; 是絕對路徑</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: &apos;{file}&apos; is not a Python file (file.py:function)</source>
        <translation>工具 &apos;{name}&apos;：&apos;{file}&apos; 不是 Python 檔案（應寫作 &apos;file.py:function&apos;）</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: cannot resolve &apos;{file}&apos;: {error}</source>
        <translation>工具 &apos;{name}&apos;：無法解析 &apos;{file}&apos;：{error}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: tools load only from the tools folder ({folder}); &apos;{file}&apos; leads outside it, to {target}</source>
        <translation>工具 &apos;{name}&apos;：工具只能從工具資料夾（{folder}）載入；&apos;{file}&apos; 指向資料夾之外：{target}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: the file {file} is not in the tools folder ({folder})</source>
        <translation>工具 &apos;{name}&apos;：工具資料夾（{folder}）中沒有檔案 {file}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: no such demo tool (demo tools: {known}; a tool from a file is written &apos;file.py:function&apos;)</source>
        <translation>工具 &apos;{name}&apos;：沒有這個示範工具（示範工具：{known}；來自檔案的工具寫作 &apos;file.py:function&apos;）</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: cannot import {file}: {error}</source>
        <translation>工具 &apos;{name}&apos;：無法匯入 {file}：{error}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: {file} has no function named &apos;{function}&apos;</source>
        <translation>工具 &apos;{name}&apos;：{file} 中沒有名為 &apos;{function}&apos; 的函式</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: &apos;{function}&apos; in {file} is not a function</source>
        <translation>工具 &apos;{name}&apos;：{file} 中的 &apos;{function}&apos; 不是函式</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: {error}</source>
        <translation>工具 &apos;{name}&apos;：{error}</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos;: its name &apos;{tool}&apos; is already used by &apos;{other}&apos;</source>
        <translation>工具 &apos;{name}&apos;：它的名稱 &apos;{tool}&apos; 已被 &apos;{other}&apos; 使用</translation>
    </message>
    <message>
        <source>Tool &apos;{name}&apos; of an MCP server: the name is already used</source>
        <translation>MCP 伺服器的工具 &apos;{name}&apos;：該名稱已被使用</translation>
    </message>
    <message>
        <source>model.api_base: credentials (a user name and password, or a key in the query) must not be saved in a design, where anyone it is shared with reads them; the studio reads API keys from the keyring when a run starts</source>
        <translation>model.api_base：憑證（使用者名稱和密碼，或查詢參數中的金鑰）不得儲存在設計中，否則任何拿到該設計的人都能讀到；工作室會在執行開始時從系統金鑰圈讀取 API 金鑰</translation>
    </message>
    <message>
        <source>model.extra.{key}: API keys must not be saved in a design; the studio reads them from the keyring when a run starts</source>
        <translation>model.extra.{key}：API 金鑰不得儲存在設計中；工作室會在執行開始時從系統金鑰圈讀取</translation>
    </message>
    <message>
        <source>{credential}: credentials (keys, tokens, secrets, Authorization headers) must not be saved in a design, where anyone it is shared with reads them; the studio reads API keys from the keyring when a run starts</source>
        <translation>{credential}：憑證（金鑰、權杖、機密、Authorization 標頭）不得儲存在設計中，否則任何拿到該設計的人都能讀到；工作室會在執行開始時從系統金鑰圈讀取 API 金鑰</translation>
    </message>
    <message>
        <source>model.extra.{key}: &apos;{key}&apos; is set by the model settings themselves, not as an extra setting</source>
        <translation>model.extra.{key}：&apos;{key}&apos; 由模型設定本身設定，不能作為額外設定</translation>
    </message>
    <message>
        <source>Not a usable agent design: {error}</source>
        <translation>不是可用的代理設計：{error}</translation>
    </message>
    <message>
        <source>Not valid JSON (line {line}, column {column}): {error}</source>
        <translation>不是有效的 JSON（第 {line} 行，第 {column} 欄）：{error}</translation>
    </message>
    <message>
        <source>Not a text file: {error}</source>
        <translation>不是文字檔案：{error}</translation>
    </message>
    <message>
        <source>Input chain</source>
        <translation>輸入鏈</translation>
    </message>
    <message>
        <source>Output chain</source>
        <translation>輸出鏈</translation>
    </message>
    <message>
        <source>Error chain</source>
        <translation>錯誤鏈</translation>
    </message>
    <message>
        <source>version: missing — this does not look like an agent design file</source>
        <translation>version：缺少——這看起來不是代理設計檔案</translation>
    </message>
    <message>
        <source>version: must be a whole number, got {value}</source>
        <translation>version：必須是整數，實際為 {value}</translation>
    </message>
    <message>
        <source>version: this design was saved by a newer Processor Studio (design format {version}; this version reads formats up to {supported}). Update Processor Studio to open it.</source>
        <translation>version：此設計由較新版本的 Processor Studio 儲存（設計格式 {version}；本版本最多讀取格式 {supported}）。請更新 Processor Studio 後再開啟。</translation>
    </message>
    <message>
        <source>version: unknown design format {version}</source>
        <translation>version：未知的設計格式 {version}</translation>
    </message>
    <message>
        <source>An agent design is a JSON object, not a list</source>
        <translation>代理設計應是 JSON 物件，而不是清單</translation>
    </message>
    <message>
        <source>An agent design is a JSON object, not a string</source>
        <translation>代理設計應是 JSON 物件，而不是字串</translation>
    </message>
    <message>
        <source>An agent design is a JSON object, not null</source>
        <translation>代理設計應是 JSON 物件，而不是 null</translation>
    </message>
    <message>
        <source>An agent design is a JSON object, not a boolean</source>
        <translation>代理設計應是 JSON 物件，而不是布林值</translation>
    </message>
    <message>
        <source>An agent design is a JSON object, not a number</source>
        <translation>代理設計應是 JSON 物件，而不是數字</translation>
    </message>
    <message>
        <source>Invalid agent design:
{listing}</source>
        <translation>代理設計無效：
{listing}</translation>
    </message>
    <message>
        <source>{file}: cannot read the file: {error}</source>
        <translation>{file}：無法讀取檔案：{error}</translation>
    </message>
    <message>
        <source>{file}: {error}</source>
        <translation>{file}：{error}</translation>
    </message>
    <message>
        <source>(design)</source>
        <translation>（設計）</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>The script could not be generated as valid Python ({error}); nothing was written</source>
        <translation>無法產生有效的 Python 指令碼（{error}）；未寫入任何內容</translation>
    </message>
    <message>
        <source>{name} is defined inside a function and cannot be exported</source>
        <translation>{name} 定義在函式內部，無法匯出</translation>
    </message>
    <message>
        <source>{name} comes from {module}, which a script cannot import</source>
        <translation>{name} 來自 {module}，指令碼無法匯入它</translation>
    </message>
    <message>
        <source>The replay diverged at step {step}: its outcome is not what the model said, so it cannot be a regression test. Export a replay that did not diverge.</source>
        <translation>重播在第 {step} 步出現分歧：其結果不是模型當時所說的，因此不能作為迴歸測試。請匯出沒有分歧的重播。</translation>
    </message>
</context>
<context>
    <name>DesignHints</name>
    <message>
        <source>Tool results go unchecked (indirect injection): the prompt-injection detector is only in the {input} lane.</source>
        <translation>工具結果未經檢查（間接注入）：提示注入偵測器只在{input}通道。</translation>
    </message>
    <message>
        <source>This agent has tools, but its prompt-injection detector is only in the {input} lane, which never sees tool results: instructions hidden in a page or an e-mail a tool returns reach the model unchecked (indirect injection).</source>
        <translation>這個代理有工具，但它的提示注入偵測器只在{input}通道，而該通道看不到工具結果：工具傳回的網頁或電子郵件裡藏著的指示會未經檢查就到達模型（間接注入）。</translation>
    </message>
    <message>
        <source>Add to the {output} lane</source>
        <translation>加入{output}通道</translation>
    </message>
    <message>
        <source>Add a prompt-injection detector with the same options to the {output} lane, checking tool results (undoable)</source>
        <translation>把一個選項相同、會檢查工具結果的提示注入偵測器加入{output}通道（可復原）</translation>
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
        <translation>改用即時模型繼續</translation>
    </message>
</context>
<context>
    <name>EndpointApproval</name>
    <message>
        <source>not a valid domain name</source>
        <translation>不是有效的網域名稱</translation>
    </message>
    <message>
        <source>Send your API key to another server?</source>
        <translation>要把你的 API 金鑰傳送到另一臺伺服器嗎？</translation>
    </message>
    <message>
        <source>Send your &lt;b&gt;{provider}&lt;/b&gt; API key to &lt;b&gt;{host}&lt;/b&gt;?</source>
        <translation>要把你的 &lt;b&gt;{provider}&lt;/b&gt; API 金鑰傳送到 &lt;b&gt;{host}&lt;/b&gt; 嗎？</translation>
    </message>
    <message>
        <source>Your key was saved for {saved_for}. The design you are using sends its {provider} requests to:&lt;br&gt;&lt;code&gt;{endpoint}&lt;/code&gt;&lt;br&gt;&lt;br&gt;A design from someone else can name any server. Allow it only if you trust this server with your key; your answer is remembered for this key.</source>
        <translation>你的金鑰是為 {saved_for} 儲存的。你正在使用的設計會把 {provider} 請求傳送到：&lt;br&gt;&lt;code&gt;{endpoint}&lt;/code&gt;&lt;br&gt;&lt;br&gt;他人的設計可以指定任意伺服器。只有在你信任此伺服器、願意把金鑰交給它時才允許；你的選擇會針對此金鑰記住。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Warning:&lt;/b&gt; {labels} mixes letters of different alphabets, as names that imitate another server&apos;s do. Its real name is {ascii}.</source>
        <translation>&lt;b&gt;警告：&lt;/b&gt;{labels} 混用了不同字母表的字母，冒充其他伺服器的名稱常常這樣做。它的真實名稱是 {ascii}。</translation>
    </message>
    <message>
        <source>Allow my key for this server</source>
        <translation>允許向此伺服器傳送我的金鑰</translation>
    </message>
    <message>
        <source>Don&apos;t send it</source>
        <translation>不要傳送</translation>
    </message>
</context>
<context>
    <name>ExportNotes</name>
    <message>
        <source>The report holds each case&apos;s text as written in the corpus (before any guardrail: attacks and any personal data in them included), the reply after the guardrails (what a user would have seen, masked where they masked), each guardrail&apos;s outcome and reason, timings, tokens and cost, and the design&apos;s name. Never an API key; the model&apos;s raw answers stay in the studio.</source>
        <translation>報告包含每個案例在語料中的原文（未經任何護欄：其中的攻擊文字和個人資料都會包含在內）、經過護欄後的回覆（即使用者會看到的內容，護欄遮蔽之處仍是遮蔽的）、每個護欄的結果和原因、耗時、詞元數和費用，以及設計的名稱。絕不包含 API 金鑰；模型的原始回答留在工作室中。</translation>
    </message>
    <message>
        <source>The comparison holds both runs&apos; figures and, for each case whose verdict changed, its id, label, category, outcomes and the guardrails that tripped, and the designs&apos; names: no case text, no reply, never an API key.</source>
        <translation>比較結果包含兩次執行的數據，以及每個判定有變化的案例的 ID、標籤、類別、結果和觸發的護欄，還有設計的名稱：不含案例文字、不含回覆，絕不包含 API 金鑰。</translation>
    </message>
    <message>
        <source>The file holds the thread&apos;s messages as the guardrails let them through, and its runs for another studio: their traces and the recordings of what the model answered and the tools returned before any guardrail, so whatever the guardrails masked in the chat is in it, unmasked. Never an API key.</source>
        <translation>該檔案包含護欄放行後的對話訊息，以及供另一個工作室使用的執行記錄：其追蹤，以及模型回答和工具傳回內容在經過任何護欄之前的錄製，因此護欄在聊天中遮蔽的內容會以未遮蔽的形式包含在內。絕不包含 API 金鑰。</translation>
    </message>
    <message>
        <source>The test holds the design (its chain and options, never an API key), the thread before the run, the run&apos;s message, and the recording of what the model answered and the tools returned before any guardrail: whatever the guardrails masked in the chat (an e-mail address, say) is in it, unmasked. Share it as you would the conversation itself.</source>
        <translation>該測試包含設計（處理鏈及其選項，絕不包含 API 金鑰）、執行前的對話、本次執行的訊息，以及模型回答和工具傳回內容在經過任何護欄之前的錄製：護欄在聊天中遮蔽的內容（例如電子郵件地址）會以未遮蔽的形式包含在內。請像對待這段對話本身一樣謹慎分享。</translation>
    </message>
</context>
<context>
    <name>ImportProgress</name>
    <message>
        <source>Reading the file…</source>
        <translation>正在讀取檔案……</translation>
    </message>
    <message>
        <source>Checking the messages…</source>
        <translation>正在檢查訊息……</translation>
    </message>
    <message>
        <source>Saving the messages…</source>
        <translation>正在儲存訊息……</translation>
    </message>
    <message>
        <source>Another thread import is still running.</source>
        <translation>另一個對話匯入仍在進行。</translation>
    </message>
    <message>
        <source>Cannot read {file}: {error}</source>
        <translation>無法讀取 {file}：{error}</translation>
    </message>
    <message>
        <source>Import refused, nothing was written: {error}</source>
        <translation>匯入被拒絕，未寫入任何內容：{error}</translation>
    </message>
    <message>
        <source>Import of {file} failed, nothing was written: {error}</source>
        <translation>匯入 {file} 失敗，未寫入任何內容：{error}</translation>
    </message>
    <message>
        <source>Importing {name}…</source>
        <translation>正在匯入 {name}……</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Import thread</source>
        <translation>匯入對話</translation>
    </message>
    <message>
        <source>Thread import refused: {problems}</source>
        <translation>對話匯入被拒絕：{problems}</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source> (and {count} more)</source>
        <translation>（另有 {count} 個）</translation>
    </message>
</context>
<context>
    <name>Inspector</name>
    <message>
        <source>Entry</source>
        <translation>項目</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Milliseconds spent in processor calls (for a stream summary: its per-chunk calls added up)</source>
        <translation>處理器呼叫耗費的毫秒數（串流彙總：各資料塊呼叫之和）</translation>
    </message>
    <message>
        <source>run {id}</source>
        <translation>執行 {id}</translation>
    </message>
    <message>
        <source>thread {id}</source>
        <translation>對話 {id}</translation>
    </message>
    <message>
        <source>{seconds} s wall time</source>
        <translation>實際耗時 {seconds} 秒</translation>
    </message>
    <message>
        <source>{processor} in {hook}</source>
        <translation>{processor}，位於 {hook}</translation>
    </message>
    <message>
        <source>Run {number}</source>
        <translation>執行 {number}</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>時間</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>類型</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>執行</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>資料</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>處理器</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重試</translation>
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
        <translation>中繼資料</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>訊息</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>詳情</translation>
    </message>
    <message>
        <source>Run {number} ({status}, a judge failed)</source>
        <translation>執行 {number}（{status}，判定模型失敗）</translation>
    </message>
    <message>
        <source>Run {number} ({status})</source>
        <translation>執行 {number}（{status}）</translation>
    </message>
    <message>
        <source>Step {number}</source>
        <translation>第 {number} 步</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>輸入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>輸出</translation>
    </message>
    <message>
        <source>judge failed, blocked</source>
        <translation>判定模型失敗，已攔截</translation>
    </message>
    <message>
        <source>judge failed, offline verdict</source>
        <translation>判定模型失敗，離線判定</translation>
    </message>
    <message>
        <source>%n chunk(s)</source>
        <translation>%n 個資料塊</translation>
    </message>
    <message>
        <source>chunk {number}: {type}</source>
        <translation>資料塊 {number}：{type}</translation>
    </message>
    <message>
        <source>Tripwires</source>
        <translation>攔截</translation>
    </message>
    <message>
        <source>Violations</source>
        <translation>違規</translation>
    </message>
    <message>
        <source>Raw</source>
        <translation>原始資料塊</translation>
    </message>
    <message>
        <source>Select an entry in the timeline to see what it changed.</source>
        <translation>在時間軸中選擇一個項目，檢視它改動了什麼。</translation>
    </message>
    <message>
        <source>%n unchanged line(s) not shown</source>
        <translation>未顯示 %n 行未改動的內容</translation>
    </message>
    <message>
        <source>Only the first {cap} lines of each side are compared; {before} more line(s) before and {after} after are not shown.</source>
        <translation>只比較了前後兩側各前 {cap} 行；修改前還有 {before} 行、修改後還有 {after} 行未顯示。</translation>
    </message>
    <message>
        <source>no calls</source>
        <translation>無呼叫</translation>
    </message>
    <message>
        <source>(the chunk went no further)</source>
        <translation>（該資料塊未再向後傳遞）</translation>
    </message>
    <message>
        <source>Hide the chunk JSON</source>
        <translation>隱藏資料塊 JSON</translation>
    </message>
    <message>
        <source>Show the chunk JSON</source>
        <translation>顯示資料塊 JSON</translation>
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
        <translation>處理器 #{index}</translation>
    </message>
    <message>
        <source>{ms} ms</source>
        <translation>{ms} 毫秒</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>錯誤</translation>
    </message>
    <message>
        <source>Input (the call gave nothing back)</source>
        <translation>輸入（此呼叫沒有返回內容）</translation>
    </message>
    <message>
        <source>Before → after (unchanged)</source>
        <translation>之前 → 之後（未改動）</translation>
    </message>
    <message>
        <source>Before → after</source>
        <translation>之前 → 之後</translation>
    </message>
    <message>
        <source>Chunks: {count} seen, {changed} changed, {held} held back and let out later, {dropped} dropped, {raised} raised, {aborted} aborted</source>
        <translation>資料塊：收到 {count} 個，修改 {changed} 個，暫扣後放行 {held} 個，丟棄 {dropped} 個，丟擲例外 {raised} 個，中止 {aborted} 個</translation>
    </message>
    <message>
        <source>Chunk change {number}</source>
        <translation>資料塊改動 {number}</translation>
    </message>
    <message>
        <source>… and %n more change(s).</source>
        <translation>……另有 %n 處改動。</translation>
    </message>
    <message>
        <source>Every chunk passed unchanged.</source>
        <translation>所有資料塊都原樣通過。</translation>
    </message>
    <message>
        <source>State after the call</source>
        <translation>呼叫後的狀態</translation>
    </message>
    <message>
        <source>Judge failed:</source>
        <translation>判定模型失敗：</translation>
    </message>
    <message>
        <source>Run {run} on thread {thread}</source>
        <translation>執行 {run}，所屬對話 {thread}</translation>
    </message>
    <message>
        <source>Run {run}</source>
        <translation>執行 {run}</translation>
    </message>
    <message>
        <source>Finish reason: {reason}</source>
        <translation>結束原因：{reason}</translation>
    </message>
    <message>
        <source>{seconds} s</source>
        <translation>{seconds} 秒</translation>
    </message>
    <message>
        <source>{ms} ms in processors</source>
        <translation>處理器耗時 {ms} 毫秒</translation>
    </message>
    <message>
        <source>Calls: {counts}</source>
        <translation>呼叫：{counts}</translation>
    </message>
    <message>
        <source>Tripwire:</source>
        <translation>觸發攔截：</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>錯誤：</translation>
    </message>
    <message>
        <source>Warning:</source>
        <translation>警告：</translation>
    </message>
    <message>
        <source>unknown processor</source>
        <translation>未知處理器</translation>
    </message>
    <message>
        <source>Chunk change {number} by {processor} (step {step})</source>
        <translation>資料塊改動 {number}，由 {processor} 造成（第 {step} 步）</translation>
    </message>
    <message>
        <source>Processor state at the step&apos;s end</source>
        <translation>該步結束時的處理器狀態</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>全部類型</translation>
    </message>
    <message>
        <source>Type:</source>
        <translation>類型：</translation>
    </message>
    <message>
        <source>Showing the last {shown} chunks ({dropped} older dropped)</source>
        <translation>顯示最近 {shown} 個資料塊（已丟棄較早的 {dropped} 個）</translation>
    </message>
    <message>
        <source>learned model</source>
        <translation>學習模型</translation>
    </message>
    <message>
        <source>phrase heuristics</source>
        <translation>片語啟發式規則</translation>
    </message>
    <message>
        <source>phrase heuristics and learned model</source>
        <translation>片語啟發式規則和學習模型</translation>
    </message>
    <message>
        <source>judge model</source>
        <translation>評判模型</translation>
    </message>
    <message>
        <source>Score {score} reached the threshold {threshold}: flagged</source>
        <translation>分數 {score} 達到臨界值 {threshold}：已標記</translation>
    </message>
    <message>
        <source>Score {score}: at or above the threshold, flagged</source>
        <translation>分數 {score}：達到或高於臨界值，已標記</translation>
    </message>
    <message>
        <source>Score {score} of the last text; %n text(s) flagged</source>
        <translation>最後一則文字分數 {score}；已標記 %n 則文字</translation>
    </message>
    <message>
        <source>Score {score}: below the threshold {threshold}, passed</source>
        <translation>分數 {score}：低於臨界值 {threshold}，已放行</translation>
    </message>
    <message>
        <source>Score {score}: below the threshold, passed</source>
        <translation>分數 {score}：低於臨界值，已放行</translation>
    </message>
    <message>
        <source>scored by the {source}</source>
        <translation>評分來自{source}</translation>
    </message>
    <message>
        <source>The score (0 to 1) of the last text checked; the threshold and above is flagged.</source>
        <translation>最後一則受檢文字的分數（0 到 1）；達到臨界值及以上即被標記。</translation>
    </message>
</context>
<context>
    <name>JudgeFailures</name>
    <message>
        <source>The judge of {processor} failed ({error}): the run was blocked (fail-closed).</source>
        <translation>{processor} 的判定模型失敗（{error}）：執行已被攔截（出錯時攔截）。</translation>
    </message>
    <message>
        <source>The judge of {processor} failed ({error}): its verdict is the offline checks&apos; alone, without the judge (fail-open).</source>
        <translation>{processor} 的判定模型失敗（{error}）：結論僅來自離線檢查，未經判定模型（出錯時放行）。</translation>
    </message>
</context>
<context>
    <name>LabAttack</name>
    <message>
        <source>An attack is already running: cancel it first.</source>
        <translation>已有攻擊在執行：請先取消它。</translation>
    </message>
    <message>
        <source>Add at least one chain of converters to attack with.</source>
        <translation>請至少新增一條用於攻擊的轉換鏈。</translation>
    </message>
    <message>
        <source>Tick at least one corpus with attacks on the left.</source>
        <translation>請在左側至少勾選一個含攻擊用例的語料。</translation>
    </message>
    <message>
        <source>The strategies cannot start: {error}</source>
        <translation>策略無法啟動：{error}</translation>
    </message>
    <message>
        <source>Not started: the estimate was declined.</source>
        <translation>未啟動：估算未獲同意。</translation>
    </message>
    <message>
        <source>Cancelling the attack…</source>
        <translation>正在取消攻擊…</translation>
    </message>
    <message>
        <source>The attack stopped: {error}</source>
        <translation>攻擊已停止：{error}</translation>
    </message>
    <message>
        <source>Attack finished: %n variant(s), {bypassed} got through.</source>
        <translation>攻擊完成：%n 個變體，{bypassed} 個突破。</translation>
    </message>
    <message>
        <source>Attack cancelled after %n variant(s), {bypassed} got through; Resume goes on.</source>
        <translation>攻擊在 %n 個變體後取消，{bypassed} 個突破；點「繼續」可接著執行。</translation>
    </message>
    <message>
        <source> The strategies wrote no variant %n time(s) ({error}).</source>
        <translation> 策略有 %n 次未能寫出變體（{error}）。</translation>
    </message>
    <message>
        <source>The bypasses were not added: {error}</source>
        <translation>突破用例未能新增：{error}</translation>
    </message>
    <message>
        <source>Added %n bypass(es) to {name} ({total} in all).</source>
        <translation>已向 {name} 新增 %n 個突破用例（共 {total} 個）。</translation>
    </message>
    <message>
        <source>Choose the bypasses to export first.</source>
        <translation>請先選擇要匯出的突破用例。</translation>
    </message>
    <message>
        <source>The test was not written: {error}</source>
        <translation>測試未能寫入：{error}</translation>
    </message>
    <message>
        <source>[turn {number}]</source>
        <translation>[第 {number} 輪]</translation>
    </message>
    <message>
        <source>No converter is called {name}.</source>
        <translation>沒有名為 {name} 的轉換器。</translation>
    </message>
    <message>
        <source>The chain {spec} cannot be read: {problem}</source>
        <translation>無法讀取轉換鏈 {spec}：{problem}</translation>
    </message>
    <message>
        <source>The converter {name} failed: {problem}</source>
        <translation>轉換器 {name} 出錯：{problem}</translation>
    </message>
    <message>
        <source>(empty: add converters)</source>
        <translation>（空：請新增轉換器）</translation>
    </message>
    <message>
        <source>Chain</source>
        <translation>轉換鏈</translation>
    </message>
    <message>
        <source>Variants</source>
        <translation>變體數</translation>
    </message>
    <message>
        <source>Got through</source>
        <translation>突破數</translation>
    </message>
    <message>
        <source>ASR</source>
        <translation>攻擊成功率</translation>
    </message>
    <message>
        <source>Attack success rate: the share of the chain&apos;s variants that got through</source>
        <translation>攻擊成功率：該轉換鏈的變體中突破防護的比例</translation>
    </message>
    <message>
        <source>Of the variants whose seed this processor stopped, the share it no longer stops</source>
        <translation>在其種子被該處理器攔下的變體中，它不再能攔下的比例</translation>
    </message>
    <message>
        <source>{processor} stopped the seeds of {seen} of these variants and no longer stops {evaded} ({share})</source>
        <translation>{processor} 攔下了其中 {seen} 個變體的種子，現在有 {evaded} 個攔不住了（{share}）</translation>
    </message>
    <message>
        <source>{bypassed} of {variants} variants got through; {errors} ended in error</source>
        <translation>{variants} 個變體中有 {bypassed} 個突破；{errors} 個出錯</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>隨機種子</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Variant</source>
        <translation>變體</translation>
    </message>
    <message>
        <source>Search converters</source>
        <translation>搜尋轉換器</translation>
    </message>
    <message>
        <source>Add to chain →</source>
        <translation>加入轉換鏈 →</translation>
    </message>
    <message>
        <source>Add the selected converters to the end of the chosen chain (Enter, or drag them)</source>
        <translation>把選中的轉換器加到所選轉換鏈的末尾（按 Enter，或拖過去）</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>A new, empty chain (Ctrl+N)</source>
        <translation>新建一條空的轉換鏈（Ctrl+N）</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove the chosen chain (Del)</source>
        <translation>移除所選轉換鏈（Del）</translation>
    </message>
    <message>
        <source>Earlier in the chain (Alt+Up)</source>
        <translation>在鏈中前移（Alt+Up）</translation>
    </message>
    <message>
        <source>Later in the chain (Alt+Down)</source>
        <translation>在鏈中後移（Alt+Down）</translation>
    </message>
    <message>
        <source>Take the converter out of the chain (Del)</source>
        <translation>把該轉換器移出轉換鏈（Del）</translation>
    </message>
    <message>
        <source>The seed case the preview converts</source>
        <translation>預覽所轉換的種子用例</translation>
    </message>
    <message>
        <source>Choose a chain and a seed to see what the design gets.</source>
        <translation>選擇一條轉換鏈和一個種子，即可看到設計實際收到的內容。</translation>
    </message>
    <message>
        <source>Converters</source>
        <translation>轉換器</translation>
    </message>
    <message>
        <source>Chains</source>
        <translation>轉換鏈</translation>
    </message>
    <message>
        <source>Steps of the chain</source>
        <translation>轉換鏈的步驟</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>預覽</translation>
    </message>
    <message>
        <source>The most variants the attack runs (seeds × chains are drawn within it)</source>
        <translation>攻擊最多執行的變體數（在此範圍內抽取「種子 × 轉換鏈」組合）</translation>
    </message>
    <message>
        <source>The same seed number gives the same variants</source>
        <translation>相同的隨機種子產生相同的變體</translation>
    </message>
    <message>
        <source>off — e.g. paraphrase,pair:3</source>
        <translation>關閉 — 例如 paraphrase,pair:3</translation>
    </message>
    <message>
        <source>Model strategies, separated by commas (paraphrase, translate, tone, tense, pair, crescendo): a model writes variants of each stopped seed. Off until named; their cost is estimated before any call.</source>
        <translation>模型策略，用逗號分隔（paraphrase、translate、tone、tense、pair、crescendo）：由模型為每個被攔下的種子編寫變體。不填寫即關閉；呼叫任何模型之前會先估算費用。</translation>
    </message>
    <message>
        <source>attacker model id</source>
        <translation>攻擊模型 ID</translation>
    </message>
    <message>
        <source>The model that writes the attacks (any litellm model id)</source>
        <translation>編寫攻擊的模型（任意 litellm 模型 ID）</translation>
    </message>
    <message>
        <source>judge model id (pair)</source>
        <translation>評判模型 ID（pair）</translation>
    </message>
    <message>
        <source>The model that scores the design&apos;s replies (PAIR)</source>
        <translation>為設計的回覆打分的模型（PAIR）</translation>
    </message>
    <message>
        <source>local server (optional)</source>
        <translation>本地伺服器（可選）</translation>
    </message>
    <message>
        <source>An OpenAI-compatible server on this machine for both models (http://localhost:…/v1)</source>
        <translation>本機上相容 OpenAI 的伺服器，供兩個模型使用（http://localhost:…/v1）</translation>
    </message>
    <message>
        <source>Strategies</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Start attack</source>
        <translation>開始攻擊</translation>
    </message>
    <message>
        <source>Run the seeds&apos; variants through the design, in the Lab&apos;s mode (Ctrl+Enter)</source>
        <translation>按實驗室當前的模式，讓種子的各個變體依次經過設計（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the attack; what finished is kept (Esc)</source>
        <translation>停止攻擊；已完成的部分會保留（Esc）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>繼續</translation>
    </message>
    <message>
        <source>Go on with the attack that did not finish: only what is missing runs (Ctrl+Shift+R)</source>
        <translation>繼續未完成的攻擊：只執行還缺的部分（Ctrl+Shift+R）</translation>
    </message>
    <message>
        <source>No attack yet</source>
        <translation>尚未發起攻擊</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>預算</translation>
    </message>
    <message>
        <source>Start the model strategies?</source>
        <translation>要啟動模型策略嗎？</translation>
    </message>
    <message>
        <source>The strategies call models. At most:</source>
        <translation>這些策略會呼叫模型。最多：</translation>
    </message>
    <message>
        <source>%n variant(s) · {bypassed} got through · ASR &lt;b&gt;{asr}&lt;/b&gt; · {errors} error(s)</source>
        <translation>%n 個變體 · {bypassed} 個突破 · 攻擊成功率 &lt;b&gt;{asr}&lt;/b&gt; · {errors} 個錯誤</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>正在啟動</translation>
    </message>
    <message>
        <source>finding the seeds the design stops</source>
        <translation>正在找出設計能攔下的種子</translation>
    </message>
    <message>
        <source>running the variants</source>
        <translation>正在執行變體</translation>
    </message>
    <message>
        <source>running the strategies&apos; variants</source>
        <translation>正在執行各策略生成的變體</translation>
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
        <translation>將突破用例匯出為迴歸測試</translation>
    </message>
    <message>
        <source>Python test (*.py)</source>
        <translation>Python 測試 (*.py)</translation>
    </message>
    <message>
        <source>Seeds: the %n attack(s) of the corpora ticked on the left; those the design stops are attacked.</source>
        <translation>種子：左側勾選的語料中的 %n 個攻擊；對設計攔下的那些發起攻擊。</translation>
    </message>
    <message>
        <source>Seeds: tick corpora with attacks on the left.</source>
        <translation>種子：請在左側勾選含攻擊用例的語料。</translation>
    </message>
    <message>
        <source>No seed to preview: tick corpora with attacks on the left.</source>
        <translation>沒有可預覽的種子：請在左側勾選含攻擊用例的語料。</translation>
    </message>
    <message>
        <source>Choose a chain, or make one with New.</source>
        <translation>請選擇一條轉換鏈，或點「新建」建立一條。</translation>
    </message>
    <message>
        <source>This chain is empty: add converters to it.</source>
        <translation>這條轉換鏈是空的：請向其中新增轉換器。</translation>
    </message>
    <message>
        <source>{chain} · seed {seed} · %n turn(s), as the design receives it</source>
        <translation>{chain} · 隨機種子 {seed} · %n 輪，即設計收到的內容</translation>
    </message>
    <message>
        <source>Open as thread</source>
        <translation>作為會話開啟</translation>
    </message>
    <message>
        <source>Run the bypass again on a new thread and show it (Enter)</source>
        <translation>在新會話中重新執行該突破用例並顯示（Enter）</translation>
    </message>
    <message>
        <source>Add to found bypasses</source>
        <translation>加入已發現的突破</translation>
    </message>
    <message>
        <source>Append the selected bypasses to a corpus the Lab lists on the left (Ctrl+B)</source>
        <translation>把選中的突破用例追加到一個語料中，該語料會列在左側（Ctrl+B）</translation>
    </message>
    <message>
        <source>Export as regression test…</source>
        <translation>匯出為迴歸測試…</translation>
    </message>
    <message>
        <source>A pytest file that fails until the design stops the selected bypasses (Ctrl+E)</source>
        <translation>生成一個 pytest 檔案：在設計攔下所選突破用例之前，它會一直失敗（Ctrl+E）</translation>
    </message>
    <message>
        <source>Robustness: what got through, per chain</source>
        <translation>穩健性：各轉換鏈的突破情況</translation>
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
        <translation>案例</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>標籤</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>類別</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>語言</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Tripped</source>
        <translation>攔截處理器</translation>
    </message>
    <message>
        <source>Turn</source>
        <translation>輪次</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation>延遲（毫秒）</translation>
    </message>
    <message>
        <source>blocked</source>
        <translation>已攔截</translation>
    </message>
    <message>
        <source>modified</source>
        <translation>已修改</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>已通過</translation>
    </message>
    <message>
        <source>error</source>
        <translation>錯誤</translation>
    </message>
    <message>
        <source>attack</source>
        <translation>攻擊</translation>
    </message>
    <message>
        <source>benign</source>
        <translation>良性</translation>
    </message>
    <message>
        <source>none of {count}</source>
        <translation>{count} 輪均未攔截</translation>
    </message>
    <message>
        <source>Turn {number}: {text} → {outcome}{tripped}</source>
        <translation>第 {number} 輪：{text} → {outcome}{tripped}</translation>
    </message>
</context>
<context>
    <name>LabController</name>
    <message>
        <source>{path}: no cases in this file</source>
        <translation>{path}：此檔案中沒有案例</translation>
    </message>
    <message>
        <source>Imported %n case(s) from {name}</source>
        <translation>已從 {name} 匯入 %n 個案例</translation>
    </message>
    <message>
        <source>; %n bad line(s) skipped: {first}</source>
        <translation>；略過了 %n 個錯誤行：{first}</translation>
    </message>
    <message>
        <source>Nothing was run: this design&apos;s MCP server &apos;{name}&apos; runs a program on this computer ({command}). Allow it when asked, then run again.</source>
        <translation>未執行任何內容：此設計的 MCP 伺服器「{name}」會在這台電腦上執行程式（{command}）。請在詢問時允許，然後再次執行。</translation>
    </message>
    <message>
        <source>Nothing was run: you did not allow this design&apos;s MCP server &apos;{name}&apos; to run ({command}). Disable its tools in the Agent tab, open the design again to be asked again, or run in guardrails mode (it starts no MCP server).</source>
        <translation>未執行任何內容：您沒有允許此設計的 MCP 伺服器「{name}」執行（{command}）。請在「代理」分頁中停用它的工具、重新開啟該設計以再次詢問，或改用 guardrails 模式執行（該模式不啟動 MCP 伺服器）。</translation>
    </message>
    <message>
        <source>Starting MCP servers: {names}…</source>
        <translation>正在啟動 MCP 伺服器：{names}…</translation>
    </message>
    <message>
        <source>Nothing was run: {error}</source>
        <translation>未執行任何內容：{error}</translation>
    </message>
    <message>
        <source>A lab run is already running: cancel it first.</source>
        <translation>已有實驗正在執行：請先取消它。</translation>
    </message>
    <message>
        <source>Current design (as it is now)</source>
        <translation>目前的設計（現在的樣子）</translation>
    </message>
    <message>
        <source>{name} (saved {when})</source>
        <translation>{name}（儲存於 {when}）</translation>
    </message>
    <message>
        <source>{name} (as in lab run {when})</source>
        <translation>{name}（與 {when} 的實驗執行相同）</translation>
    </message>
    <message>
        <source>{name} (as in a chat run {when})</source>
        <translation>{name}（與 {when} 的對話執行相同）</translation>
    </message>
    <message>
        <source>{name} (file {file})</source>
        <translation>{name}（檔案 {file}）</translation>
    </message>
    <message>
        <source>Design {name} read from {file}</source>
        <translation>已從 {file} 讀取設計 {name}</translation>
    </message>
    <message>
        <source>Unknown mode {mode!r}</source>
        <translation>未知模式 {mode!r}</translation>
    </message>
    <message>
        <source>Choose a design for A and for B.</source>
        <translation>請為 A 和 B 各選一個設計。</translation>
    </message>
    <message>
        <source>A and B are the same design: pick another for one of them (a saved design, a version an earlier run ran with, or From file…).</source>
        <translation>A 和 B 是同一個設計：請為其中一個另選設計（已儲存的設計、之前執行所用的版本，或「從檔案…」）。</translation>
    </message>
    <message>
        <source>{letter}: {design} · {corpora}</source>
        <translation>{letter}：{design} · {corpora}</translation>
    </message>
    <message>
        <source>This lab run has no recorded replies to replay: only a run in model mode records them.</source>
        <translation>這個實驗沒有可重播的錄製回覆：只有模型模式的執行會錄製回覆。</translation>
    </message>
    <message>
        <source>The lab run cannot be replayed: {error}</source>
        <translation>無法重播該實驗：{error}</translation>
    </message>
    <message>
        <source>Replay of {name} on {design}</source>
        <translation>在 {design} 上重播 {name}</translation>
    </message>
    <message>
        <source>Left out %n case(s) with no recorded reply.</source>
        <translation>有 %n 個案例沒有錄製的回覆，已略過。</translation>
    </message>
    <message>
        <source>input {input}, output {output}, tools {tools}</source>
        <translation>輸入 {input}，輸出 {output}，工具 {tools}</translation>
    </message>
    <message>
        <source>Choose at least one corpus to run.</source>
        <translation>請至少選取一個語料來執行。</translation>
    </message>
    <message>
        <source>There is no design to run.</source>
        <translation>沒有可執行的設計。</translation>
    </message>
    <message>
        <source>The agent could not be built: {error}</source>
        <translation>無法建立代理：{error}</translation>
    </message>
    <message>
        <source>{design} · {corpora}</source>
        <translation>{design} · {corpora}</translation>
    </message>
    <message>
        <source>That lab run is no longer in the store.</source>
        <translation>該實驗已不在儲存區中。</translation>
    </message>
    <message>
        <source>The lab run cannot be resumed: {error}</source>
        <translation>無法繼續該實驗：{error}</translation>
    </message>
    <message>
        <source>The lab run whose recorded replies this replays is no longer in the store.</source>
        <translation>被重播錄製回覆的那次實驗已不在儲存區中。</translation>
    </message>
    <message>
        <source>Cancelling the lab run…</source>
        <translation>正在取消實驗……</translation>
    </message>
    <message>
        <source>Lab run finished: %n case(s).</source>
        <translation>實驗完成：%n 個案例。</translation>
    </message>
    <message>
        <source>Your {provider} key is not approved for {host}: allow it in Settings → API keys first.</source>
        <translation>你的 {provider} 金鑰尚未獲准傳送到 {host}：請先在「設定 → API 金鑰」中允許。</translation>
    </message>
    <message>
        <source>Lab run cancelled after {done} of {total} cases; Resume runs the rest.</source>
        <translation>實驗已在完成 {total} 個案例中的 {done} 個後取消；「繼續」會執行其餘案例。</translation>
    </message>
    <message>
        <source>A lab run is running: its results stay on show until it ends or is cancelled.</source>
        <translation>有實驗正在執行：在它結束或被取消之前，會一直顯示它的結果。</translation>
    </message>
    <message>
        <source>Cancel the running lab run before deleting it.</source>
        <translation>請先取消正在執行的實驗，再刪除它。</translation>
    </message>
    <message>
        <source>Lab run deleted.</source>
        <translation>實驗已刪除。</translation>
    </message>
    <message>
        <source>There is no A/B comparison to export yet.</source>
        <translation>還沒有可匯出的 A/B 比較。</translation>
    </message>
    <message>
        <source>There are no results to export yet.</source>
        <translation>還沒有可匯出的結果。</translation>
    </message>
    <message>
        <source>The report was not written: {error}</source>
        <translation>報告未寫入：{error}</translation>
    </message>
    <message>
        <source>Wrote {name}</source>
        <translation>已寫入 {name}</translation>
    </message>
    <message>
        <source>The case cannot be opened: {error}</source>
        <translation>無法開啟該案例：{error}</translation>
    </message>
    <message>
        <source>Lab: {case}</source>
        <translation>實驗室：{case}</translation>
    </message>
    <message>
        <source>The design has no input or tool-result guard to run side by side.</source>
        <translation>該設計沒有可並列執行的輸入防護或工具結果防護。</translation>
    </message>
    <message>
        <source>{guard} alone · {corpora}</source>
        <translation>單獨執行 {guard} · {corpora}</translation>
    </message>
</context>
<context>
    <name>LabCurves</name>
    <message>
        <source>Drag to see recall and false-positive rate at each threshold</source>
        <translation>拖曳以查看每個閾值下的召回率和誤報率</translation>
    </message>
    <message>
        <source>&lt;b&gt;{threshold}&lt;/b&gt; · recall &lt;b&gt;{recall}&lt;/b&gt; · FPR &lt;b&gt;{fpr}&lt;/b&gt;</source>
        <translation>&lt;b&gt;{threshold}&lt;/b&gt; · 召回率 &lt;b&gt;{recall}&lt;/b&gt; · 誤報率 &lt;b&gt;{fpr}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Lowest threshold within this FPR</source>
        <translation>此誤報率內的最低閾值</translation>
    </message>
    <message>
        <source>Put the slider on the lowest threshold (the highest recall) whose false-positive rate stays within the budget</source>
        <translation>把滑桿移到誤報率不超過預算的最低閾值（召回率最高）</translation>
    </message>
    <message>
        <source>Use in the design</source>
        <translation>用於設計</translation>
    </message>
    <message>
        <source>Write this threshold into the guard&apos;s options in the editor (Ctrl+Z undoes it)</source>
        <translation>把這個閾值寫入編輯器中該防護的選項（Ctrl+Z 可復原）</translation>
    </message>
    <message>
        <source>Guard:</source>
        <translation>防護：</translation>
    </message>
    <message>
        <source>FPR budget:</source>
        <translation>誤報率預算：</translation>
    </message>
    <message>
        <source>Threshold:</source>
        <translation>閾值：</translation>
    </message>
    <message>
        <source>{attacks} attacks, {benign} benign cases scored · ROC AUC {roc} · PR AUC {pr}</source>
        <translation>已評分 {attacks} 個攻擊、{benign} 個正常案例 · ROC AUC {roc} · PR AUC {pr}</translation>
    </message>
    <message>
        <source>No threshold keeps the false-positive rate within {budget}</source>
        <translation>沒有閾值能使誤報率不超過 {budget}</translation>
    </message>
    <message>
        <source>No guard gave scores in these results.</source>
        <translation>這些結果中沒有防護給出分數。</translation>
    </message>
    <message>
        <source>Scores: attacks vs benign</source>
        <translation>分數：攻擊與正常</translation>
    </message>
    <message>
        <source>ROC curve (AUC {auc})</source>
        <translation>ROC 曲線（AUC {auc}）</translation>
    </message>
    <message>
        <source>false-positive rate</source>
        <translation>誤報率</translation>
    </message>
    <message>
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>Precision-recall (AUC {auc})</source>
        <translation>精確率-召回率（AUC {auc}）</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精確率</translation>
    </message>
    <message>
        <source>attacks</source>
        <translation>攻擊</translation>
    </message>
    <message>
        <source>benign</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Guard</source>
        <translation>防護</translation>
    </message>
    <message>
        <source>ms per case</source>
        <translation>每個案例毫秒數</translation>
    </message>
    <message>
        <source>tokens per case</source>
        <translation>每個案例權杖數</translation>
    </message>
    <message>
        <source>USD per case</source>
        <translation>每個案例美元</translation>
    </message>
    <message>
        <source>Run each guard alone</source>
        <translation>逐一單獨執行防護</translation>
    </message>
    <message>
        <source>Run the chosen corpora once per input and tool-result guard of the design, each guard alone (not as a chain), and compare them: recall, FPR, AUC and cost per case</source>
        <translation>對設計中的每個輸入防護和工具結果防護各執行一次所選語料，每次只執行該防護（不組成鏈），並加以比較：召回率、誤報率、AUC 和每個案例的開銷</translation>
    </message>
    <message>
        <source>Guards side by side</source>
        <translation>防護並列比較</translation>
    </message>
</context>
<context>
    <name>LabLists</name>
    <message>
        <source>bundled with the studio</source>
        <translation>隨 Processor Studio 提供</translation>
    </message>
    <message>
        <source>
%n bad line(s) skipped</source>
        <translation>
已略過 %n 個錯誤行</translation>
    </message>
    <message>
        <source>{name} (%n case(s))</source>
        <translation>{name}（%n 個案例）</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中斷</translation>
    </message>
    <message>
        <source>running</source>
        <translation>執行中</translation>
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
        <translation> · 召回率 {recall}，誤報率 {fpr}</translation>
    </message>
    <message>
        <source>{when} {name} — {status} {done}/{total}{figures}</source>
        <translation>{when} {name} — {status} {done}/{total}{figures}</translation>
    </message>
    <message>
        <source>; resumed {count}×</source>
        <translation>；繼續過 {count} 次</translation>
    </message>
    <message>
        <source>guardrails</source>
        <translation>護欄</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>重播</translation>
    </message>
    <message>
        <source>Mode {mode}, corpora: {corpora}{resumed}</source>
        <translation>模式 {mode}，語料：{corpora}{resumed}</translation>
    </message>
    <message>
        <source>other languages</source>
        <translation>其他語言</translation>
    </message>
</context>
<context>
    <name>LabTables</name>
    <message>
        <source>Errors</source>
        <translation>錯誤</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精確率</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>FPR</source>
        <translation>誤報率</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>模型拒絕</translation>
    </message>
    <message>
        <source>Attack succeeded</source>
        <translation>攻擊成功</translation>
    </message>
    <message>
        <source>Attack success rate</source>
        <translation>攻擊成功率</translation>
    </message>
    <message>
        <source>All cases</source>
        <translation>全部案例</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>案例</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>類別</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>語言</translation>
    </message>
    <message>
        <source>Attack category</source>
        <translation>攻擊類別</translation>
    </message>
    <message>
        <source>Not blocked</source>
        <translation>未攔截</translation>
    </message>
    <message>
        <source>Tripped on {count} of this category&apos;s {total} attacks ({share}); changed {changed} more</source>
        <translation>在此類別 {total} 個攻擊中攔截了 {count} 個（{share}）；另修改了 {changed} 個</translation>
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
        <translation>處理器</translation>
    </message>
    <message>
        <source>Attacks blocked</source>
        <translation>攔截的攻擊</translation>
    </message>
    <message>
        <source>Only this one</source>
        <translation>僅由它攔截</translation>
    </message>
    <message>
        <source>Benign blocked</source>
        <translation>攔截的良性案例</translation>
    </message>
    <message>
        <source>Recall without it</source>
        <translation>移除它後的召回率</translation>
    </message>
    <message>
        <source>{without} (now {recall})</source>
        <translation>{without}（目前 {recall}）</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>案例</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>標籤</translation>
    </message>
    <message>
        <source>Before (A)</source>
        <translation>之前（A）</translation>
    </message>
    <message>
        <source>After (B)</source>
        <translation>之後（B）</translation>
    </message>
    <message>
        <source>{share} of this category&apos;s attacks</source>
        <translation>佔此類別攻擊的 {share}</translation>
    </message>
</context>
<context>
    <name>LabView</name>
    <message>
        <source>Guardrail lab — Processor Studio</source>
        <translation>護欄實驗室 — Processor Studio</translation>
    </message>
    <message>
        <source>guardrails: the input and output lanes around a fixed reply, no model call (free, fast)
model: the design&apos;s own model answers each case</source>
        <translation>護欄：圍繞一個固定回覆執行輸入和輸出通道，不呼叫模型（免費、快速）
模型：由設計自己的模型回答每個案例</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>執行</translation>
    </message>
    <message>
        <source>Run the chosen corpora against the design (Ctrl+Enter)</source>
        <translation>用目前設計執行所選語料（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the run; finished cases are kept (Esc)</source>
        <translation>停止執行；已完成的案例會保留（Esc）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>繼續</translation>
    </message>
    <message>
        <source>Run the cases the selected lab run has not finished (Ctrl+Shift+R)</source>
        <translation>執行所選實驗尚未完成的案例（Ctrl+Shift+R）</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>匯出報告</translation>
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
        <translation>尚未執行</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>replay (recorded replies)</source>
        <translation>重播（錄製的回覆）</translation>
    </message>
    <message>
        <source>Cases run at once, in every mode. They run in worker processes (one per 200 cases, at most one per processor core), so the window stays responsive; each worker takes a second or two to start.</source>
        <translation>同時執行的案例數，適用於所有模式。案例在工作行程中執行（每 200 個案例一個，最多每個處理器核心一個），因此視窗始終保持回應；每個工作行程需要一兩秒啟動。</translation>
    </message>
    <message>
        <source>Concurrency</source>
        <translation>並行數</translation>
    </message>
    <message>
        <source>Import corpus…</source>
        <translation>匯入語料…</translation>
    </message>
    <message>
        <source>JSONL, CSV, plain text (one prompt a line) or promptfoo YAML (Ctrl+I)</source>
        <translation>JSONL、CSV、純文字（每行一個提示）或 promptfoo YAML（Ctrl+I）</translation>
    </message>
    <message>
        <source>attacks</source>
        <translation>攻擊</translation>
    </message>
    <message>
        <source>benign</source>
        <translation>良性</translation>
    </message>
    <message>
        <source>Skip bad lines (and list them)</source>
        <translation>跳過錯誤行（並列出）</translation>
    </message>
    <message>
        <source>Unlabelled cases are</source>
        <translation>未標註的案例視為</translation>
    </message>
    <message>
        <source>Compare A/B</source>
        <translation>比較 A/B</translation>
    </message>
    <message>
        <source>Select two lab runs: the older is A, the newer B (Ctrl+D)</source>
        <translation>選取兩次實驗：較早的為 A，較新的為 B（Ctrl+D）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>刪除</translation>
    </message>
    <message>
        <source>Re-run from recorded replies</source>
        <translation>用錄製的回覆重新執行</translation>
    </message>
    <message>
        <source>Put the selected model-mode lab run&apos;s recorded replies through the design as it is now, with no model call, and compare the two (Ctrl+Shift+P)</source>
        <translation>讓所選模型模式實驗錄製的回覆通過目前的設計重新執行（不呼叫模型），並比較兩者（Ctrl+Shift+P）</translation>
    </message>
    <message>
        <source>Corpora</source>
        <translation>語料</translation>
    </message>
    <message>
        <source>Lab runs</source>
        <translation>實驗</translation>
    </message>
    <message>
        <source>any outcome</source>
        <translation>任意結果</translation>
    </message>
    <message>
        <source>any label</source>
        <translation>任意標籤</translation>
    </message>
    <message>
        <source>any category</source>
        <translation>任意類別</translation>
    </message>
    <message>
        <source>any language</source>
        <translation>任意語言</translation>
    </message>
    <message>
        <source>any processor</source>
        <translation>任意處理器</translation>
    </message>
    <message>
        <source>Only misses</source>
        <translation>僅看失誤</translation>
    </message>
    <message>
        <source>Attacks not blocked, benign cases blocked, errors</source>
        <translation>未被攔截的攻擊、被攔截的良性案例、錯誤</translation>
    </message>
    <message>
        <source>Search cases (Ctrl+F)</source>
        <translation>搜尋案例（Ctrl+F）</translation>
    </message>
    <message>
        <source>Double-click (or Enter) opens the case as a thread with its inspector trace</source>
        <translation>按兩下（或按 Enter）將案例以對話開啟，並附帶其檢查器追蹤記錄</translation>
    </message>
    <message>
        <source>Per language</source>
        <translation>依語言</translation>
    </message>
    <message>
        <source>Per category</source>
        <translation>依類別</translation>
    </message>
    <message>
        <source>Recall and false-positive rate per category</source>
        <translation>各類別的召回率與誤報率</translation>
    </message>
    <message>
        <source>Attack categories × processors: which processor caught what</source>
        <translation>攻擊類別 × 處理器：哪個處理器攔下了什麼</translation>
    </message>
    <message>
        <source>Each processor&apos;s contribution</source>
        <translation>各處理器的貢獻</translation>
    </message>
    <message>
        <source>Select two lab runs on the left and press Compare A/B (Ctrl+D).</source>
        <translation>在左側選取兩次實驗，然後按「比較 A/B」（Ctrl+D）。</translation>
    </message>
    <message>
        <source>Run A and B</source>
        <translation>執行 A 和 B</translation>
    </message>
    <message>
        <source>Run the corpora ticked on the left on design A, then on design B (in the mode chosen above), and show the cases whose verdict changed</source>
        <translation>先用設計 A、再用設計 B 執行左側勾選的語料（使用上方選擇的模式），並顯示判定有變化的案例</translation>
    </message>
    <message>
        <source>Design A</source>
        <translation>設計 A</translation>
    </message>
    <message>
        <source>Design B</source>
        <translation>設計 B</translation>
    </message>
    <message>
        <source>From file…</source>
        <translation>從檔案…</translation>
    </message>
    <message>
        <source>Pick a design file from disk (a colleague&apos;s exported design, say) for {letter}; it is checked as File → Open design checks it, and nothing runs until you press Run A and B</source>
        <translation>為 {letter} 選擇磁碟上的設計檔案（例如同事匯出的設計）；它會像「檔案 → 開啟設計」一樣被檢查，在你按下「執行 A 和 B」之前不會執行任何東西</translation>
    </message>
    <message>
        <source>Export A/B…</source>
        <translation>匯出 A/B…</translation>
    </message>
    <message>
        <source>Write this comparison as JSON: both runs&apos; figures, the cases whose verdict changed and the cases only one run has (as &apos;processor-studio lab diff --json&apos; writes it)</source>
        <translation>將此比較寫成 JSON：兩次執行的指標、判定有變化的案例，以及只在一次執行中出現的案例（與 &apos;processor-studio lab diff --json&apos; 的輸出相同）</translation>
    </message>
    <message>
        <source>Not compared: {a} cases only in A, {b} cases only in B (the two runs&apos; corpora differ)</source>
        <translation>未比較：{a} 個案例只在 A 中，{b} 個案例只在 B 中（兩次執行的語料不同）</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>案例</translation>
    </message>
    <message>
        <source>Confusion</source>
        <translation>混淆矩陣</translation>
    </message>
    <message>
        <source>Processors</source>
        <translation>處理器</translation>
    </message>
    <message>
        <source>A/B</source>
        <translation>A/B</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>分數</translation>
    </message>
    <message>
        <source>Attack</source>
        <translation>攻擊</translation>
    </message>
    <message>
        <source>{processor}: threshold {threshold} written into the design (Ctrl+Z undoes it)</source>
        <translation>{processor}：閾值 {threshold} 已寫入設計（Ctrl+Z 可復原）</translation>
    </message>
    <message>
        <source>The design being edited has no {processor} with a threshold to set.</source>
        <translation>正在編輯的設計中沒有可設定閾值的 {processor}。</translation>
    </message>
    <message>
        <source>guardrails (no model call)</source>
        <translation>護欄（不呼叫模型）</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（無）</translation>
    </message>
    <message>
        <source>Design: &lt;b&gt;{name}&lt;/b&gt; · model {model}</source>
        <translation>設計：&lt;b&gt;{name}&lt;/b&gt; · 模型 {model}</translation>
    </message>
    <message>
        <source>The first results are on their way…</source>
        <translation>第一批結果即將到來……</translation>
    </message>
    <message>
        <source>No lab run on show.

Tick one or more corpora on the left (or import your own: Ctrl+I), then press Run (Ctrl+Enter). Every case goes through the current design&apos;s guardrails; the table shows which processor caught what.</source>
        <translation>目前沒有顯示的實驗。

在左側勾選一個或多個語料（或匯入你自己的語料：Ctrl+I），然後按「執行」（Ctrl+Enter）。每個案例都會經過目前設計的護欄；表格會顯示哪個處理器攔下了什麼。</translation>
    </message>
    <message>
        <source>Press Run (Ctrl+Enter) to run the chosen corpora, or pick a lab run on the left.</source>
        <translation>按「執行」（Ctrl+Enter）執行所選語料，或在左側選取一次實驗。</translation>
    </message>
    <message>
        <source>{count} cases · recall &lt;b&gt;{recall}&lt;/b&gt; · precision {precision} · FPR &lt;b&gt;{fpr}&lt;/b&gt;</source>
        <translation>{count} 個案例 · 召回率 &lt;b&gt;{recall}&lt;/b&gt; · 精確率 {precision} · 誤報率 &lt;b&gt;{fpr}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>, about {seconds} s left</source>
        <translation>，約剩 {seconds} 秒</translation>
    </message>
    <message>
        <source>{done} / {total} cases{left}</source>
        <translation>{done} / {total} 個案例{left}</translation>
    </message>
    <message>
        <source>{done} / {total} cases</source>
        <translation>{done} / {total} 個案例</translation>
    </message>
    <message>
        <source> — cancelled</source>
        <translation> — 已取消</translation>
    </message>
    <message>
        <source>Select the model-mode lab run whose replies to replay.</source>
        <translation>請選擇要重播其回覆的模型模式實驗。</translation>
    </message>
    <message>
        <source>Select exactly two lab runs to compare.</source>
        <translation>請恰好選取兩次實驗進行比較。</translation>
    </message>
    <message>
        <source>A: {a}&lt;br&gt;B: {b}&lt;br&gt;recall {r0} → &lt;b&gt;{r1}&lt;/b&gt; · FPR {f0} → &lt;b&gt;{f1}&lt;/b&gt; · {count} cases changed verdict</source>
        <translation>A：{a}&lt;br&gt;B：{b}&lt;br&gt;召回率 {r0} → &lt;b&gt;{r1}&lt;/b&gt; · 誤報率 {f0} → &lt;b&gt;{f1}&lt;/b&gt; · {count} 個案例的判定有變化</translation>
    </message>
    <message>
        <source>Delete lab runs</source>
        <translation>刪除實驗</translation>
    </message>
    <message>
        <source>Delete {count} lab run(s) and their results? Threads opened from their cases stay.</source>
        <translation>刪除 {count} 次實驗及其結果？從其案例開啟的對話會保留。</translation>
    </message>
    <message>
        <source>Import a corpus</source>
        <translation>匯入語料</translation>
    </message>
    <message>
        <source>Corpora (*.jsonl *.ndjson *.csv *.txt *.yaml *.yml *.json);;All files (*)</source>
        <translation>語料 (*.jsonl *.ndjson *.csv *.txt *.yaml *.yml *.json);;所有檔案 (*)</translation>
    </message>
    <message>
        <source>Design {letter} from a file</source>
        <translation>從檔案選擇設計 {letter}</translation>
    </message>
    <message>
        <source>Agent designs (*.json);;All files (*)</source>
        <translation>代理設計 (*.json);;所有檔案 (*)</translation>
    </message>
    <message>
        <source>Export the lab report</source>
        <translation>匯出實驗報告</translation>
    </message>
    <message>
        <source>Click a category to see its cases</source>
        <translation>點擊一個類別以檢視其案例</translation>
    </message>
    <message>
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>FPR</source>
        <translation>誤報率</translation>
    </message>
    <message>
        <source>No results yet</source>
        <translation>還沒有結果</translation>
    </message>
    <message>
        <source>no attacks</source>
        <translation>無攻擊案例</translation>
    </message>
    <message>
        <source>no benign</source>
        <translation>無良性案例</translation>
    </message>
</context>
<context>
    <name>LaneWords</name>
    <message>
        <source>input</source>
        <translation>輸入</translation>
    </message>
    <message>
        <source>output</source>
        <translation>輸出</translation>
    </message>
    <message>
        <source>error</source>
        <translation>錯誤</translation>
    </message>
</context>
<context>
    <name>Lanes</name>
    <message>
        <source>Input</source>
        <translation>輸入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>輸出</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>錯誤</translation>
    </message>
    <message>
        <source>Runs on the user&apos;s message before the model sees it</source>
        <translation>在模型看到使用者訊息之前對其執行</translation>
    </message>
    <message>
        <source>Runs on the model&apos;s answer, while it streams and when it is complete</source>
        <translation>對模型的回答執行：串流輸出期間及完成時</translation>
    </message>
    <message>
        <source>Runs when the model&apos;s API call fails</source>
        <translation>在模型 API 呼叫失敗時執行</translation>
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
        <translation>語言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Restart now</source>
        <translation>立即重新啟動(&amp;R)</translation>
    </message>
    <message>
        <source>Close and start the studio again in the picked language; unsent text is kept</source>
        <translation>關閉並以所選語言重新啟動；未傳送的文字會保留</translation>
    </message>
    <message>
        <source>Shown after a restart.</source>
        <translation>重新啟動後生效。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&lt;b&gt;Chat&lt;/b&gt;: Enter sends · Shift+Enter new line · Esc stops the reply</source>
        <translation>&lt;b&gt;對話&lt;/b&gt;：Enter 傳送 · Shift+Enter 換行 · Esc 停止回覆</translation>
    </message>
    <message>
        <source>&lt;b&gt;Replay&lt;/b&gt;: Ctrl+R replays the selected run through the current chain · Ctrl+Alt+R the whole thread</source>
        <translation>&lt;b&gt;重播&lt;/b&gt;：Ctrl+R 用目前處理鏈重播選取的執行 · Ctrl+Alt+R 重播整個對話</translation>
    </message>
    <message>
        <source>&lt;b&gt;Threads&lt;/b&gt;: Ctrl+N new · F2 rename · Del delete</source>
        <translation>&lt;b&gt;對話列表&lt;/b&gt;：Ctrl+N 新增 · F2 重新命名 · Del 刪除</translation>
    </message>
    <message>
        <source>&lt;b&gt;Chains&lt;/b&gt;: Space enable/disable · Del remove · Ctrl+↑/↓ reorder · Ctrl+←/→ move to the previous/next lane · Enter in the palette adds the type</source>
        <translation>&lt;b&gt;鏈&lt;/b&gt;：空格 啟用/停用 · Del 移除 · Ctrl+↑/↓ 調整順序 · Ctrl+←/→ 移到上一個/下一個通道 · 在處理器面板中按 Enter 新增該類型</translation>
    </message>
    <message>
        <source>&lt;b&gt;Edit&lt;/b&gt;: Ctrl+Z undo · Ctrl+Shift+Z redo</source>
        <translation>&lt;b&gt;編輯&lt;/b&gt;：Ctrl+Z 復原 · Ctrl+Shift+Z 重做</translation>
    </message>
    <message>
        <source>&lt;b&gt;File&lt;/b&gt;: Ctrl+O open design · Ctrl+S save design · Ctrl+E export as Python</source>
        <translation>&lt;b&gt;檔案&lt;/b&gt;：Ctrl+O 開啟設計 · Ctrl+S 儲存設計 · Ctrl+E 匯出為 Python</translation>
    </message>
    <message>
        <source>&lt;b&gt;Lab&lt;/b&gt;: Ctrl+L open · Ctrl+W close · Ctrl+Enter run · Esc cancel · Ctrl+Shift+R resume · Ctrl+I import a corpus · Ctrl+F search · Enter opens a case as a thread · Ctrl+D compare two lab runs · Ctrl+Shift+P re-run a model run from its recorded replies</source>
        <translation>&lt;b&gt;護欄實驗室&lt;/b&gt;：Ctrl+L 開啟 · Ctrl+W 關閉 · Ctrl+Enter 執行 · Esc 取消 · Ctrl+Shift+R 繼續 · Ctrl+I 匯入語料 · Ctrl+F 搜尋 · Enter 將案例以對話開啟 · Ctrl+D 比較兩次實驗 · Ctrl+Shift+P 用錄下的回覆重跑模型實驗</translation>
    </message>
    <message>
        <source>&lt;b&gt;Every window&lt;/b&gt; (the Lab&apos;s too): Ctrl+Q quit · Ctrl+, API keys and connection · F1 this list</source>
        <translation>&lt;b&gt;所有視窗&lt;/b&gt;（護欄實驗室也一樣）：Ctrl+Q 結束 · Ctrl+, API 金鑰與連線 · F1 本列表</translation>
    </message>
    <message>
        <source>Processors</source>
        <translation>處理器</translation>
    </message>
    <message>
        <source>Chains</source>
        <translation>鏈</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>選項</translation>
    </message>
    <message>
        <source>Guardrails</source>
        <translation>護欄</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>代理</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>對話</translation>
    </message>
    <message>
        <source>Debugger</source>
        <translation>偵錯工具</translation>
    </message>
    <message>
        <source>A tool file was skipped: {problem}</source>
        <translation>已跳過一個工具檔案：{problem}</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>檔案(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New agent</source>
        <translation>新增代理(&amp;N)</translation>
    </message>
    <message>
        <source>Open the &amp;sample agent</source>
        <translation>開啟範例代理(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Open design…</source>
        <translation>開啟設計(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save design as…</source>
        <translation>設計另存為(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Export as Python script…</source>
        <translation>匯出為 Python 指令碼(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Import thread…</source>
        <translation>匯入對話(&amp;I)…</translation>
    </message>
    <message>
        <source>E&amp;xport thread…</source>
        <translation>匯出對話(&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>結束(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編輯(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>檢視(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Editor pane</source>
        <translation>編輯器窗格(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Inspector pane</source>
        <translation>檢查器窗格(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>重設版面配置(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Chat</source>
        <translation>對話(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;New thread</source>
        <translation>新增對話(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Stop the reply</source>
        <translation>停止回覆(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Replay the run through the current chain</source>
        <translation>用目前處理鏈重播執行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Replay</source>
        <translation>重播(&amp;R)</translation>
    </message>
    <message>
        <source>Replay the whole &amp;thread through the current chain</source>
        <translation>用目前處理鏈重播整個對話(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Lab</source>
        <translation>實驗室(&amp;L)</translation>
    </message>
    <message>
        <source>Open the guardrail &amp;lab</source>
        <translation>開啟護欄實驗室(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>設定(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;API keys and connection…</source>
        <translation>API 金鑰與連線(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Language…</source>
        <translation>語言(&amp;L)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>說明(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>鍵盤快捷鍵(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Processor Studio</source>
        <translation>關於 Processor Studio(&amp;A)</translation>
    </message>
    <message>
        <source>Replay through the current chain</source>
        <translation>用目前處理鏈重播</translation>
    </message>
    <message>
        <source>No run to replay in this thread yet.</source>
        <translation>此對話中還沒有可重播的執行。</translation>
    </message>
    <message>
        <source>No thread is open.</source>
        <translation>沒有開啟的對話。</translation>
    </message>
    <message>
        <source>Export run as a regression test</source>
        <translation>將執行匯出為回歸測試</translation>
    </message>
    <message>
        <source>Python tests (*.py)</source>
        <translation>Python 測試 (*.py)</translation>
    </message>
    <message>
        <source>{name} — Processor Studio</source>
        <translation>{name} — Processor Studio</translation>
    </message>
    <message>
        <source>Open design</source>
        <translation>開啟設計</translation>
    </message>
    <message>
        <source>Agent designs (*.json)</source>
        <translation>代理設計 (*.json)</translation>
    </message>
    <message>
        <source>Save design</source>
        <translation>儲存設計</translation>
    </message>
    <message>
        <source>Export as Python</source>
        <translation>匯出為 Python</translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation>Python 指令碼 (*.py)</translation>
    </message>
    <message>
        <source>Import thread</source>
        <translation>匯入對話</translation>
    </message>
    <message>
        <source>Threads (*.json)</source>
        <translation>對話 (*.json)</translation>
    </message>
    <message>
        <source>Export thread</source>
        <translation>匯出對話</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>鍵盤快捷鍵</translation>
    </message>
    <message>
        <source>Undone: {edit} (Ctrl+Shift+Z redoes it)</source>
        <translation>已復原：{edit}（Ctrl+Shift+Z 可重做）</translation>
    </message>
    <message>
        <source>Redone: {edit} (Ctrl+Z undoes it)</source>
        <translation>已重做：{edit}（Ctrl+Z 可復原）</translation>
    </message>
</context>
<context>
    <name>McpApproval</name>
    <message>
        <source>Run a program from this design?</source>
        <translation>執行此設計中的程式？</translation>
    </message>
    <message>
        <source>Start the MCP server &lt;b&gt;{name}&lt;/b&gt;? It runs this program:</source>
        <translation>啟動 MCP 伺服器 &lt;b&gt;{name}&lt;/b&gt;？它會執行這個程式：</translation>
    </message>
    <message>
        <source>(none besides your own)</source>
        <translation>（除您自己的以外沒有）</translation>
    </message>
    <message>
        <source>Environment variables it sets:</source>
        <translation>它設定的環境變數：</translation>
    </message>
    <message>
        <source>The program runs with your rights: it can read your files and use the network. A design from someone else can name any program. Allow it only if you trust this command; your answer is remembered for this exact command and environment.</source>
        <translation>該程式以您的權限執行：它可以讀取您的檔案並使用網路。別人的設計可以指定任何程式。僅在您信任此命令時才允許；您的回答會針對這條命令及其環境記住。</translation>
    </message>
    <message>
        <source>Run this program</source>
        <translation>執行此程式</translation>
    </message>
    <message>
        <source>Don&apos;t run it</source>
        <translation>不執行</translation>
    </message>
</context>
<context>
    <name>McpServerDialog</name>
    <message>
        <source>MCP server</source>
        <translation>MCP 伺服器</translation>
    </message>
    <message>
        <source>A program (stdio)</source>
        <translation>程式（stdio）</translation>
    </message>
    <message>
        <source>A URL (Streamable HTTP)</source>
        <translation>URL（Streamable HTTP）</translation>
    </message>
    <message>
        <source>e.g. npx, uvx or a path to a program</source>
        <translation>例如 npx、uvx 或程式路徑</translation>
    </message>
    <message>
        <source>Arguments, as in a shell: -y @modelcontextprotocol/server-filesystem .</source>
        <translation>參數，寫法同 shell：-y @modelcontextprotocol/server-filesystem .</translation>
    </message>
    <message>
        <source>NAME=value, one per line (no keys or tokens)</source>
        <translation>NAME=value，每行一個（不要填密鑰或令牌）</translation>
    </message>
    <message>
        <source>Name: value, one per line (no credentials)</source>
        <translation>Name: value，每行一個（不要填憑證）</translation>
    </message>
    <message>
        <source>Authorization value, e.g. Bearer …: kept in the keyring</source>
        <translation>Authorization 值，例如 Bearer …：儲存在金鑰圈中</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名稱(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Runs as</source>
        <translation>執行方式(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Command</source>
        <translation>命令(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Arguments</source>
        <translation>參數(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Environment</source>
        <translation>環境變數(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;URL</source>
        <translation>URL(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Headers</source>
        <translation>請求標頭(&amp;H)</translation>
    </message>
    <message>
        <source>Cre&amp;dential</source>
        <translation>憑證(&amp;D)</translation>
    </message>
    <message>
        <source>Arguments: {error}</source>
        <translation>參數：{error}</translation>
    </message>
    <message>
        <source>Another server is already called &apos;{name}&apos;.</source>
        <translation>已有另一個伺服器名為「{name}」。</translation>
    </message>
</context>
<context>
    <name>McpServersView</name>
    <message>
        <source>Add…</source>
        <translation>新增…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>編輯…</translation>
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
        <translation>短暫啟動所選伺服器並顯示它提供的工具</translation>
    </message>
    <message>
        <source>{name} (not offered)</source>
        <translation>{name}（未提供）</translation>
    </message>
    <message>
        <source> Its credential is in the keyring.</source>
        <translation> 其憑證已儲存在金鑰圈中。</translation>
    </message>
    <message>
        <source> No keyring here: its credential is kept for this session only.</source>
        <translation> 此處沒有金鑰圈：其憑證僅在本次工作階段中保留。</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; saved.</source>
        <translation>MCP 伺服器「{name}」已儲存。</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; removed.</source>
        <translation>MCP 伺服器「{name}」已移除。</translation>
    </message>
    <message>
        <source>Select a server first.</source>
        <translation>請先選擇一個伺服器。</translation>
    </message>
    <message>
        <source>The program of &apos;{name}&apos; came with the design and has not been allowed to run: send a message to be asked, or edit the server.</source>
        <translation>「{name}」的程式來自該設計，尚未被允許執行：發送一條訊息以便詢問您，或編輯該伺服器。</translation>
    </message>
    <message>
        <source>Starting &apos;{name}&apos; to list its tools…</source>
        <translation>正在啟動「{name}」以列出其工具…</translation>
    </message>
    <message>
        <source>&apos;{name}&apos; offers %n tool(s); tick those the agent may use.</source>
        <translation>「{name}」提供 %n 個工具；勾選代理可以使用的工具。</translation>
    </message>
</context>
<context>
    <name>ModelError</name>
    <message>
        <source>The provider did not answer in time</source>
        <translation>供應商未在限定時間內回應</translation>
    </message>
    <message>
        <source>Could not reach the provider</source>
        <translation>無法連線到供應商</translation>
    </message>
    <message>
        <source>The provider closed the stream before it finished</source>
        <translation>供應商在串流輸出完成前關閉了連線</translation>
    </message>
    <message>
        <source>Connection error.</source>
        <translation>連線錯誤。</translation>
    </message>
    <message>
        <source>Request timed out.</source>
        <translation>請求逾時。</translation>
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
        <translation>阻擋</translation>
    </message>
    <message>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>filter</source>
        <translation>過濾</translation>
    </message>
    <message>
        <source>redact</source>
        <translation>遮蔽</translation>
    </message>
    <message>
        <source>rewrite</source>
        <translation>改寫</translation>
    </message>
    <message>
        <source>detect</source>
        <translation>僅偵測</translation>
    </message>
    <message>
        <source>translate</source>
        <translation>翻譯</translation>
    </message>
    <message>
        <source>truncate</source>
        <translation>截斷</translation>
    </message>
    <message>
        <source>abort</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>retry</source>
        <translation>重試</translation>
    </message>
    <message>
        <source>fallback</source>
        <translation>使用備援值</translation>
    </message>
    <message>
        <source>fail-open</source>
        <translation>出錯時放行</translation>
    </message>
    <message>
        <source>fail-closed</source>
        <translation>出錯時攔截</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>遮罩</translation>
    </message>
    <message>
        <source>hash</source>
        <translation>雜湊</translation>
    </message>
    <message>
        <source>remove</source>
        <translation>刪除</translation>
    </message>
    <message>
        <source>placeholder</source>
        <translation>預留位置</translation>
    </message>
    <message>
        <source>run</source>
        <translation>每次執行</translation>
    </message>
    <message>
        <source>thread</source>
        <translation>每個對話</translation>
    </message>
    <message>
        <source>resource</source>
        <translation>每個資源</translation>
    </message>
    <message>
        <source>global</source>
        <translation>全域</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>input</source>
        <translation>輸入</translation>
    </message>
    <message>
        <source>output</source>
        <translation>輸出</translation>
    </message>
    <message>
        <source>always</source>
        <translation>一律</translation>
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
        <translation>啟發式規則</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>學習模型</translation>
    </message>
    <message>
        <source>both</source>
        <translation>兩者</translation>
    </message>
    <message>
        <source>cumulative</source>
        <translation>累計</translation>
    </message>
    <message>
        <source>part</source>
        <translation>按部分</translation>
    </message>
    <message>
        <source>best-fit</source>
        <translation>最佳配適</translation>
    </message>
    <message>
        <source>contiguous</source>
        <translation>連續</translation>
    </message>
    <message>
        <source>memory-only</source>
        <translation>僅記憶</translation>
    </message>
    <message>
        <source>pii</source>
        <translation>個人資料</translation>
    </message>
    <message>
        <source>secrets</source>
        <translation>金鑰與憑證</translation>
    </message>
    <message>
        <source>urls</source>
        <translation>網址</translation>
    </message>
    <message>
        <source>email</source>
        <translation>電子郵件</translation>
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
        <translation>電話號碼</translation>
    </message>
    <message>
        <source>credit-card</source>
        <translation>信用卡號</translation>
    </message>
    <message>
        <source>ssn</source>
        <translation>美國社會安全號碼</translation>
    </message>
    <message>
        <source>api-key</source>
        <translation>API 金鑰</translation>
    </message>
    <message>
        <source>ip-address</source>
        <translation>IP 位址</translation>
    </message>
    <message>
        <source>url</source>
        <translation>網址</translation>
    </message>
    <message>
        <source>uuid</source>
        <translation>UUID</translation>
    </message>
    <message>
        <source>crypto-wallet</source>
        <translation>加密貨幣錢包</translation>
    </message>
    <message>
        <source>iban</source>
        <translation>IBAN 帳號</translation>
    </message>
    <message>
        <source>cn-resident-id</source>
        <translation>中國居民身分證號</translation>
    </message>
    <message>
        <source>tw-national-id</source>
        <translation>臺灣身分證字號</translation>
    </message>
    <message>
        <source>hk-id</source>
        <translation>香港身分證號碼</translation>
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
        <translation>越獄</translation>
    </message>
    <message>
        <source>role-manipulation</source>
        <translation>角色操縱</translation>
    </message>
    <message>
        <source>system-override</source>
        <translation>覆寫系統指令</translation>
    </message>
    <message>
        <source>data-exfiltration</source>
        <translation>資料外洩</translation>
    </message>
    <message>
        <source>tool-exfiltration</source>
        <translation>經工具外洩</translation>
    </message>
    <message>
        <source>hate</source>
        <translation>仇恨</translation>
    </message>
    <message>
        <source>hate/threatening</source>
        <translation>仇恨/威脅</translation>
    </message>
    <message>
        <source>harassment</source>
        <translation>騷擾</translation>
    </message>
    <message>
        <source>harassment/threatening</source>
        <translation>騷擾/威脅</translation>
    </message>
    <message>
        <source>self-harm</source>
        <translation>自我傷害</translation>
    </message>
    <message>
        <source>self-harm/intent</source>
        <translation>自我傷害/意圖</translation>
    </message>
    <message>
        <source>self-harm/instructions</source>
        <translation>自我傷害/方法指導</translation>
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
        <translation>暴力/血腥畫面</translation>
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
        <translation>（無）</translation>
    </message>
    <message>
        <source>default: {value}</source>
        <translation>預設：{value}</translation>
    </message>
    <message>
        <source>Enter a whole number</source>
        <translation>請輸入整數</translation>
    </message>
    <message>
        <source>Enter a number</source>
        <translation>請輸入數字</translation>
    </message>
    <message>
        <source>One item per line</source>
        <translation>每行一項</translation>
    </message>
    <message>
        <source>Not valid JSON: {error}</source>
        <translation>不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <source>A folder on this computer</source>
        <translation>本機上的資料夾</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選擇…</translation>
    </message>
    <message>
        <source>Choose the folder</source>
        <translation>選擇資料夾</translation>
    </message>
    <message>
        <source>Key…</source>
        <translation>金鑰…</translation>
    </message>
    <message>
        <source>Save the API key for this endpoint</source>
        <translation>儲存此端點的 API 金鑰</translation>
    </message>
    <message>
        <source>Save this service&apos;s API key in the system keyring. It is sent to this endpoint only, never stored in the design.</source>
        <translation>將此服務的 API 金鑰儲存到系統金鑰圈。它只會傳送到此端點，絕不會儲存在設計中。</translation>
    </message>
    <message>
        <source>Key for this endpoint: {key}</source>
        <translation>此端點的金鑰：{key}</translation>
    </message>
    <message>
        <source>No key saved for this endpoint</source>
        <translation>此端點尚未儲存金鑰</translation>
    </message>
    <message>
        <source>The model&apos;s labels: {labels}</source>
        <translation>模型的標籤：{labels}</translation>
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
        <translation>在鏈中選擇一個處理器以編輯其選項。</translation>
    </message>
    <message>
        <source>Needs a model to judge with (set its model option).</source>
        <translation>需要一個用於判定的模型（請設定其 model 選項）。</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>選項</translation>
    </message>
    <message>
        <source>This processor has no options.</source>
        <translation>此處理器沒有選項。</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 金鑰</translation>
    </message>
    <message>
        <source>The API key to send to {host} (saved in the system keyring for this endpoint only; empty removes it):</source>
        <translation>要傳送到 {host} 的 API 金鑰（僅為此端點儲存在系統金鑰圈中；留空則刪除）：</translation>
    </message>
    <message>
        <source>{name} error</source>
        <translation>{name} 錯誤</translation>
    </message>
    <message>
        <source>item {number}</source>
        <translation>第 {number} 項</translation>
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
        <translation>通過</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已修改</translation>
    </message>
    <message>
        <source>held</source>
        <translation>暫扣</translation>
    </message>
    <message>
        <source>dropped</source>
        <translation>已丟棄</translation>
    </message>
    <message>
        <source>aborted</source>
        <translation>已中止</translation>
    </message>
    <message>
        <source>raised</source>
        <translation>例外</translation>
    </message>
    <message>
        <source>running</source>
        <translation>執行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>tripwire</source>
        <translation>攔截</translation>
    </message>
    <message>
        <source>error</source>
        <translation>錯誤</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
</context>
<context>
    <name>Palette</name>
    <message>
        <source>Hooks: {hooks}</source>
        <translation>掛鉤：{hooks}</translation>
    </message>
    <message>
        <source>Needs a model to judge with.</source>
        <translation>需要一個用於判定的模型。</translation>
    </message>
    <message>
        <source>Search processors</source>
        <translation>搜尋處理器</translation>
    </message>
    <message>
        <source>Processor types</source>
        <translation>處理器類型</translation>
    </message>
    <message>
        <source>Add to Chain</source>
        <translation>新增到鏈</translation>
    </message>
    <message>
        <source>No processor matches “{text}”.</source>
        <translation>沒有與「{text}」匹配的處理器。</translation>
    </message>
</context>
<context>
    <name>ProblemText</name>
    <message>
        <source>invalid regular expression {pattern!r}: {error}</source>
        <translation>無效的正規表示式 {pattern!r}：{error}</translation>
    </message>
    <message>
        <source>invalid regular expression {pattern!r} with flags {flags!r}: {error}</source>
        <translation>無效的正規表示式 {pattern!r}（旗標 {flags!r}）：{error}</translation>
    </message>
    <message>
        <source>the regular expression {pattern!r} can backtrack catastrophically: a repeated part can match the same text in more than one way</source>
        <translation>正規表示式 {pattern!r} 可能發生災難性回溯：其中重複的部分能以不只一種方式比對同一段文字</translation>
    </message>
    <message>
        <source>pattern {index}: {error}</source>
        <translation>第 {index} 個模式：{error}</translation>
    </message>
    <message>
        <source>matcher {index}: {error}</source>
        <translation>第 {index} 個比對規則：{error}</translation>
    </message>
    <message>
        <source>matcher {index} is not a valid regular expression ({pattern!r}): {error}</source>
        <translation>第 {index} 個比對規則不是有效的正規表示式（{pattern!r}）：{error}</translation>
    </message>
    <message>
        <source>pattern {index} ({pattern!r}) does not compile: {error}</source>
        <translation>第 {index} 個模式（{pattern!r}）無法編譯：{error}</translation>
    </message>
    <message>
        <source>{type} does not declare its options: give its class an Options model (pydantic) or an options_schema (a JSON schema) to set them in the studio</source>
        <translation>{type} 沒有宣告它的選項：在它的類別上宣告 Options 模型（pydantic）或 options_schema（JSON 模式），即可在工作室中設定這些選項</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; ({launch}) did not start within {seconds:g} s</source>
        <translation>MCP 伺服器「{name}」（{launch}）未在 {seconds:g} 秒內啟動</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; ({launch}) could not be started: {reason}</source>
        <translation>MCP 伺服器「{name}」（{launch}）無法啟動：{reason}</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; does not offer the tool(s) {tools} that the design enables</source>
        <translation>MCP 伺服器「{name}」不提供設計所啟用的工具 {tools}</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; stopped: {reason}</source>
        <translation>MCP 伺服器「{name}」已停止：{reason}</translation>
    </message>
    <message>
        <source>a stdio MCP server needs a command</source>
        <translation>stdio MCP 伺服器需要一個命令</translation>
    </message>
    <message>
        <source>an http MCP server needs an http:// or https:// URL</source>
        <translation>http MCP 伺服器需要 http:// 或 https:// 網址</translation>
    </message>
    <message>
        <source>the URL carries a credential; credentials belong in the keyring, not a design</source>
        <translation>網址中帶有憑證；憑證應儲存在系統金鑰圈中，而不是設計裡</translation>
    </message>
    <message>
        <source>{field}: credentials must not be saved in a design, where anyone it is shared with reads them; the studio reads them from the keyring</source>
        <translation>{field}：憑證不得儲存在設計中，否則任何拿到該設計的人都能讀到；工作室會從系統金鑰圈讀取</translation>
    </message>
    <message>
        <source>{where}: {problem}</source>
        <translation>{where}：{problem}</translation>
    </message>
    <message>
        <source>expected a JSON object, got {kind}</source>
        <translation>應為 JSON 物件，實際為 {kind}</translation>
    </message>
    <message>
        <source>not valid JSON: {error}</source>
        <translation>不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <source>a thread with id {id!r} already exists</source>
        <translation>ID 為 {id!r} 的對話已存在</translation>
    </message>
    <message>
        <source>{id!r} is already stored in another thread</source>
        <translation>{id!r} 已儲存在另一個對話中</translation>
    </message>
    <message>
        <source>{id!r} is also the id of {other}</source>
        <translation>{id!r} 也是 {other} 的 ID</translation>
    </message>
    <message>
        <source>{id!r} is not the thread&apos;s id {thread!r}</source>
        <translation>{id!r} 不是該對話的 ID {thread!r}</translation>
    </message>
    <message>
        <source>must be 1 to {max} characters</source>
        <translation>長度必須為 1 到 {max} 個字元</translation>
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
        <translation>字元 {character!r}</translation>
    </message>
    <message>
        <source>a line separator</source>
        <translation>行分隔字元</translation>
    </message>
    <message>
        <source>a paragraph separator</source>
        <translation>段落分隔字元</translation>
    </message>
    <message>
        <source>a lone surrogate ({code})</source>
        <translation>孤立的代理字元（{code}）</translation>
    </message>
    <message>
        <source>a control character ({code})</source>
        <translation>控制字元（{code}）</translation>
    </message>
    <message>
        <source>unknown part type {type!r} (expected text, reasoning, file, source, step-start, error, tool-invocation or a data-* type)</source>
        <translation>未知的部分類型 {type!r}（應為 text、reasoning、file、source、step-start、error、tool-invocation 或 data-* 類型）</translation>
    </message>
    <message>
        <source>expected a list of runs, got {kind}</source>
        <translation>應為執行清單，實際為 {kind}</translation>
    </message>
    <message>
        <source>{id!r} appears twice</source>
        <translation>{id!r} 出現了兩次</translation>
    </message>
    <message>
        <source>run {id!r} is already stored</source>
        <translation>執行 {id!r} 已儲存</translation>
    </message>
    <message>
        <source>not base64: {error}</source>
        <translation>不是 base64 編碼：{error}</translation>
    </message>
    <message>
        <source>not a readable recording: {error}</source>
        <translation>不是可讀取的錄製：{error}</translation>
    </message>
    <message>
        <source>larger than {size} MB decompressed</source>
        <translation>解壓縮後超過 {size} MB</translation>
    </message>
    <message>
        <source>Not valid JSON: {error}</source>
        <translation>不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <source>not valid JSON ({json_fault} at column {column})</source>
        <translation>不是有效的 JSON（第 {column} 欄：{json_fault}）</translation>
    </message>
    <message>
        <source>&apos;text&apos; is missing or empty</source>
        <translation>&apos;text&apos; 缺少或為空</translation>
    </message>
    <message>
        <source>&apos;id&apos; must be a non-empty string</source>
        <translation>&apos;id&apos; 必須是非空字串</translation>
    </message>
    <message>
        <source>&apos;label&apos; must be &apos;attack&apos; or &apos;benign&apos;, got {got!r}</source>
        <translation>&apos;label&apos; 必須是 &apos;attack&apos; 或 &apos;benign&apos;，實際為 {got!r}</translation>
    </message>
    <message>
        <source>&apos;expect&apos; must be blocked, passed, modified or a processor id, got {got!r}</source>
        <translation>&apos;expect&apos; 必須是 blocked、passed、modified 或處理器 ID，實際為 {got!r}</translation>
    </message>
    <message>
        <source>a case must be an object, got {kind}</source>
        <translation>案例必須是物件，實際為 {kind}</translation>
    </message>
    <message>
        <source>&apos;{name}&apos; must be a string, got {kind}</source>
        <translation>&apos;{name}&apos; 必須是字串，實際為 {kind}</translation>
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
        <translation>未知的語料格式 {suffix!r}（請使用 {known}）</translation>
    </message>
    <message>
        <source>cannot read it ({error})</source>
        <translation>無法讀取（{error}）</translation>
    </message>
    <message>
        <source>the first row must name a text column ({keys})</source>
        <translation>第一列必須指明文字欄（{keys}）</translation>
    </message>
    <message>
        <source>unknown processor type {type!r}; known: {known}</source>
        <translation>未知的處理器類型 {type!r}；可用類型：{known}</translation>
    </message>
    <message>
        <source>{messages} messages, {system} system; last: {last!r}</source>
        <translation>{messages} 條訊息，{system} 條系統訊息；最後一條：{last!r}</translation>
    </message>
    <message>
        <source>{messages} messages, {system} system</source>
        <translation>{messages} 條訊息，{system} 條系統訊息</translation>
    </message>
    <message>
        <source>{server} (port {port}): not running</source>
        <translation>{server}（埠 {port}）：未執行</translation>
    </message>
    <message>
        <source>{server} (port {port}): no answer within {time}</source>
        <translation>{server}（埠 {port}）：{time}內無回應</translation>
    </message>
    <message>
        <source>Tripwire triggered by {processor}</source>
        <translation>處理器 {processor} 觸發了攔截</translation>
    </message>
    <message>
        <source>unknown field</source>
        <translation>未知欄位</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺少</translation>
    </message>
    <message>
        <source>nested more than {depth} levels deep</source>
        <translation>巢狀超過 {depth} 層</translation>
    </message>
    <message>
        <source>not a finite number (NaN, Infinity and numbers too large for a float are not JSON values)</source>
        <translation>不是有限數字（NaN、Infinity 以及超出浮點範圍的數字都不是 JSON 值）</translation>
    </message>
    <message>
        <source>missing ), unterminated subpattern</source>
        <translation>缺少 )，子模式未閉合</translation>
    </message>
    <message>
        <source>missing )</source>
        <translation>缺少 )</translation>
    </message>
    <message>
        <source>unbalanced parenthesis</source>
        <translation>括號不成對</translation>
    </message>
    <message>
        <source>nothing to repeat</source>
        <translation>重複符號前沒有可重複的內容</translation>
    </message>
    <message>
        <source>multiple repeat</source>
        <translation>有多重重複符號</translation>
    </message>
    <message>
        <source>unterminated character set</source>
        <translation>字元集未閉合</translation>
    </message>
    <message>
        <source>min repeat greater than max repeat</source>
        <translation>最小重複次數大於最大重複次數</translation>
    </message>
    <message>
        <source>look-behind requires fixed-width pattern</source>
        <translation>後行斷言需要固定寬度的模式</translation>
    </message>
    <message>
        <source>a value was expected</source>
        <translation>此處應為一個值</translation>
    </message>
    <message>
        <source>a name in double quotes was expected</source>
        <translation>此處應為帶雙引號的名稱</translation>
    </message>
    <message>
        <source>&apos;,&apos; was expected</source>
        <translation>此處應為 &apos;,&apos;</translation>
    </message>
    <message>
        <source>&apos;:&apos; was expected</source>
        <translation>此處應為 &apos;:&apos;</translation>
    </message>
    <message>
        <source>a text is not closed</source>
        <translation>字串沒有閉合</translation>
    </message>
    <message>
        <source>more data after the JSON value</source>
        <translation>JSON 值之後還有多餘內容</translation>
    </message>
    <message>
        <source>a control character inside a text</source>
        <translation>字串中有控制字元</translation>
    </message>
    <message>
        <source>an invalid escape</source>
        <translation>無效的跳脫</translation>
    </message>
    <message>
        <source>{fault} at position {position}</source>
        <translation>位置 {position} 處：{fault}</translation>
    </message>
    <message>
        <source>{fault}</source>
        <translation>{fault}</translation>
    </message>
    <message>
        <source>{fault} at line {line}, column {column}</source>
        <translation>第 {line} 行第 {column} 欄：{fault}</translation>
    </message>
    <message>
        <source>bad escape {escape}</source>
        <translation>跳脫 {escape} 無效</translation>
    </message>
</context>
<context>
    <name>ReplayController</name>
    <message>
        <source>A replay or fuzzing is still running: wait or cancel it.</source>
        <translation>重播或模糊測試仍在進行：請等待或取消。</translation>
    </message>
    <message>
        <source>No run {0} in the store.</source>
        <translation>儲存區中沒有執行 {0}。</translation>
    </message>
    <message>
        <source>This run has no recording (it was made before runs were recorded).</source>
        <translation>此執行沒有錄製（它產生於開始錄製執行之前）。</translation>
    </message>
    <message>
        <source>This run&apos;s message was not kept, so it cannot be replayed.</source>
        <translation>此執行的訊息未被儲存，因此無法重播。</translation>
    </message>
    <message>
        <source>Replay stopped.</source>
        <translation>重播已停止。</translation>
    </message>
    <message>
        <source>This thread has no runs yet.</source>
        <translation>此對話還沒有執行。</translation>
    </message>
    <message>
        <source>Fuzzing cancelled.</source>
        <translation>模糊測試已取消。</translation>
    </message>
</context>
<context>
    <name>ReplayView</name>
    <message>
        <source>Replay of a run — Processor Studio</source>
        <translation>執行重播 — Processor Studio</translation>
    </message>
    <message>
        <source>Replaying the recorded run through the current chain…</source>
        <translation>正在用目前處理鏈重播錄製的執行…</translation>
    </message>
    <message>
        <source>Stop the replay</source>
        <translation>停止重播</translation>
    </message>
    <message>
        <source>Original chain</source>
        <translation>原處理鏈</translation>
    </message>
    <message>
        <source>Current chain</source>
        <translation>目前處理鏈</translation>
    </message>
    <message>
        <source>Processor</source>
        <translation>處理器</translation>
    </message>
    <message>
        <source>Original</source>
        <translation>原本</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>現在</translation>
    </message>
    <message>
        <source>Fuzz chunk boundaries</source>
        <translation>模糊測試資料塊邊界</translation>
    </message>
    <message>
        <source>Re-cut the recorded reply many ways and list every output processor whose verdict changes</source>
        <translation>以多種方式重新切分錄製的回覆，並列出判定隨之改變的每個輸出處理器</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Export as regression test…</source>
        <translation>匯出為回歸測試…</translation>
    </message>
    <message>
        <source>⚠ Tool {0} was called with other arguments: recorded {1}, now {2} (given the recorded result)</source>
        <translation>⚠ 工具 {0} 的呼叫參數已改變：錄製時為 {1}，現在為 {2}（仍傳回錄製的結果）</translation>
    </message>
    <message>
        <source>The conversation diverged at step {0}: the chain now asks the model something the recording does not have, so the replay stopped there.</source>
        <translation>對話在第 {0} 步出現分歧：處理鏈現在向模型提出的請求不在錄製中，因此重播在此停止。</translation>
    </message>
    <message>
        <source>not in the chain</source>
        <translation>不在處理鏈中</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通過</translation>
    </message>
    <message>
        <source>Step {0}: what the recording was asked (-) and what the chain asks now (+)</source>
        <translation>第 {0} 步：錄製時的請求（-）與處理鏈現在的請求（+）</translation>
    </message>
    <message>
        <source>Step {0}: what the chain asks now (+); the recording has no request to compare it with</source>
        <translation>第 {0} 步：處理鏈現在的請求（+）；錄製中沒有可與之比較的請求</translation>
    </message>
    <message>
        <source>(the messages are the same)</source>
        <translation>（訊息相同）</translation>
    </message>
    <message>
        <source>… and %n more line(s)</source>
        <translation>……另有 %n 行</translation>
    </message>
    <message>
        <source>held</source>
        <translation>暫扣</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已修改</translation>
    </message>
    <message>
        <source>dropped</source>
        <translation>已捨棄</translation>
    </message>
    <message>
        <source>raised</source>
        <translation>出錯</translation>
    </message>
    <message>
        <source>aborted</source>
        <translation>已中止</translation>
    </message>
    <message>
        <source>not called</source>
        <translation>未呼叫</translation>
    </message>
    <message>
        <source>chunks changed: {0}</source>
        <translation>修改的資料塊：{0}</translation>
    </message>
    <message>
        <source>chunks dropped: {0}</source>
        <translation>捨棄的資料塊：{0}</translation>
    </message>
    <message>
        <source>not reached (the run stopped at {0})</source>
        <translation>未執行到（執行在 {0} 處停止）</translation>
    </message>
    <message>
        <source>Tripwire</source>
        <translation>攔截</translation>
    </message>
    <message>
        <source>Replayed with no model call: the current chain gives the same result as the original.</source>
        <translation>已重播，未呼叫模型：目前處理鏈的結果與原本相同。</translation>
    </message>
    <message>
        <source>the final text differs</source>
        <translation>最終文字不同</translation>
    </message>
    <message>
        <source>the tripwire differs</source>
        <translation>攔截不同</translation>
    </message>
    <message>
        <source>{0} processor(s) did something else: {1}</source>
        <translation>{0} 個處理器的行為不同：{1}</translation>
    </message>
    <message>
        <source>Export again to {0}</source>
        <translation>再次匯出到 {0}</translation>
    </message>
    <message>
        <source>Rewrite {0} with this replay and the design as it is now (the file holds a frozen copy of the design from its last export)</source>
        <translation>用這次重播和目前的設計重寫 {0}（該檔案保存的是上次匯出時設計的凍結副本）</translation>
    </message>
    <message>
        <source>Continued with the live model from step {0}: the current chain gives the same result as the original.</source>
        <translation>已從第 {0} 步起改用即時模型繼續：目前處理鏈的結果與原來相同。</translation>
    </message>
    <message>
        <source>Continued with the live model from step {0}: {1}.</source>
        <translation>已從第 {0} 步起改用即時模型繼續：{1}。</translation>
    </message>
    <message>
        <source>Replayed with no model call: {0}.</source>
        <translation>已重播，未呼叫模型：{0}。</translation>
    </message>
    <message>
        <source>The run could not be replayed: {0}</source>
        <translation>無法重播此執行：{0}</translation>
    </message>
    <message>
        <source>Continuing with the live model from the step that diverged…</source>
        <translation>正在從出現分歧的步驟起改用即時模型繼續…</translation>
    </message>
    <message>
        <source>No output processor changes its verdict with the cut ({0} checked).</source>
        <translation>沒有輸出處理器的判定隨切分而改變（已檢查 {0} 個）。</translation>
    </message>
    <message>
        <source>{0} changes with the cut; the smallest cut found: {1} — {2} instead of {3}</source>
        <translation>{0} 的結果隨切分而改變；找到的最小切分：{1} — 得到 {2}，而不是 {3}</translation>
    </message>
    <message>
        <source>a tripwire ({0}: {1})</source>
        <translation>攔截（{0}：{1}）</translation>
    </message>
    <message>
        <source>the text {0}</source>
        <translation>文字 {0}</translation>
    </message>
</context>
<context>
    <name>RunController</name>
    <message>
        <source>The run failed: {kind}: {error}</source>
        <translation>執行失敗：{kind}：{error}</translation>
    </message>
    <message>
        <source>The run failed: {kind}</source>
        <translation>執行失敗：{kind}</translation>
    </message>
</context>
<context>
    <name>RuntimeText</name>
    <message>
        <source>{count} chunks</source>
        <translation>{count} 個資料塊</translation>
    </message>
    <message>
        <source>{changed} changed, {held} held, {dropped} dropped</source>
        <translation>修改 {changed} 個，暫扣 {held} 個，丟棄 {dropped} 個</translation>
    </message>
    <message>
        <source>Input should be greater than or equal to {limit}</source>
        <translation>應大於或等於 {limit}</translation>
    </message>
    <message>
        <source>Input should be greater than {limit}</source>
        <translation>應大於 {limit}</translation>
    </message>
    <message>
        <source>Input should be less than or equal to {limit}</source>
        <translation>應小於或等於 {limit}</translation>
    </message>
    <message>
        <source>Input should be less than {limit}</source>
        <translation>應小於 {limit}</translation>
    </message>
    <message>
        <source>Input should be a whole number</source>
        <translation>應為整數</translation>
    </message>
    <message>
        <source>Input should be a number</source>
        <translation>應為數字</translation>
    </message>
    <message>
        <source>Input should be true or false</source>
        <translation>應為是或否（true 或 false）</translation>
    </message>
    <message>
        <source>Input should be text</source>
        <translation>應為文字</translation>
    </message>
    <message>
        <source>Text should match the pattern &apos;{pattern}&apos;</source>
        <translation>文字應符合模式 &apos;{pattern}&apos;</translation>
    </message>
    <message>
        <source>Input should be a list</source>
        <translation>應為列表</translation>
    </message>
    <message>
        <source>Input should be a JSON object</source>
        <translation>應為 JSON 物件</translation>
    </message>
    <message>
        <source>Input should be {choices}</source>
        <translation>應為 {choices} 之一</translation>
    </message>
    <message>
        <source>Field required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>Not an option of this processor</source>
        <translation>不是此處理器的選項</translation>
    </message>
    <message>
        <source>List should have at least {count} item(s)</source>
        <translation>列表至少應有 {count} 項</translation>
    </message>
    <message>
        <source>Text should have at least {count} character(s)</source>
        <translation>文字至少應有 {count} 個字元</translation>
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
        <translation>設定</translation>
    </message>
    <message>
        <source>Paste the API key</source>
        <translation>貼上 API 金鑰</translation>
    </message>
    <message>
        <source>&amp;Forget allowed servers</source>
        <translation>忘記已允許的伺服器(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Save key</source>
        <translation>儲存金鑰(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <source>e.g. http://localhost:11434 for Ollama (optional)</source>
        <translation>如 Ollama 的 http://localhost:11434（可選）</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>測試連線(&amp;T)</translation>
    </message>
    <message>
        <source>Find &amp;local servers</source>
        <translation>尋找本機伺服器(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Use</source>
        <translation>使用(&amp;U)</translation>
    </message>
    <message>
        <source>Set the design&apos;s model and API base to this local server&apos;s model</source>
        <translation>將設計的模型和 API 位址設為此本機伺服器的模型</translation>
    </message>
    <message>
        <source>Keys are stored in your system keyring.</source>
        <translation>金鑰儲存在系統金鑰環中。</translation>
    </message>
    <message>
        <source>No system keyring was found: keys are kept for this session only (never written to disk). You can also set the provider&apos;s environment variable, e.g. OPENAI_API_KEY.</source>
        <translation>未找到系統金鑰環：金鑰僅在本次工作階段中保留（絕不寫入磁碟）。你也可以設定供應商的環境變數，如 OPENAI_API_KEY。</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>供應商</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 金鑰</translation>
    </message>
    <message>
        <source>For endpoint</source>
        <translation>用於端點</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>API base</source>
        <translation>API 位址</translation>
    </message>
    <message>
        <source>Local servers</source>
        <translation>本機伺服器</translation>
    </message>
    <message>
        <source>{host} (the provider&apos;s own); or the base URL this key is for</source>
        <translation>{host}（供應商自己的）；或此金鑰所用的基礎 URL</translation>
    </message>
    <message>
        <source>The base URL this key is for</source>
        <translation>此金鑰所用的基礎 URL</translation>
    </message>
    <message>
        <source>its default</source>
        <translation>其預設端點</translation>
    </message>
    <message>
        <source>Stored: {key} — sent only to {host}</source>
        <translation>已儲存：{key}——只傳送到 {host}</translation>
    </message>
    <message>
        <source>No key stored for this provider.</source>
        <translation>此供應商沒有已儲存的金鑰。</translation>
    </message>
    <message>
        <source>Also allowed: {hosts}</source>
        <translation>另外允許：{hosts}</translation>
    </message>
    <message>
        <source>Not saved — the endpoint: {error}</source>
        <translation>未儲存——端點有誤：{error}</translation>
    </message>
    <message>
        <source>Saved in the system keyring.</source>
        <translation>已儲存到系統金鑰環。</translation>
    </message>
    <message>
        <source>Saved for this session only.</source>
        <translation>僅為本次工作階段儲存。</translation>
    </message>
    <message>
        <source>Key removed.</source>
        <translation>金鑰已移除。</translation>
    </message>
    <message>
        <source>Remove the API key</source>
        <translation>移除 API 金鑰</translation>
    </message>
    <message>
        <source>Remove your {provider} API key from this computer? You would have to paste it again.</source>
        <translation>從這台電腦移除你的 {provider} API 金鑰？之後需要重新貼上。</translation>
    </message>
    <message>
        <source>Your {provider} key may now be sent to {host}.</source>
        <translation>你的 {provider} 金鑰現在可以傳送到 {host}。</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>正在測試……</translation>
    </message>
    <message>
        <source>API base: {error}</source>
        <translation>API 位址：{error}</translation>
    </message>
    <message>
        <source>Failed — {kind}: {error}</source>
        <translation>失敗——{kind}：{error}</translation>
    </message>
    <message>
        <source> (your {provider} key was not sent: it is for {saved_for}, not {host})</source>
        <translation>（未傳送你的 {provider} 金鑰：它用於 {saved_for}，而不是 {host}）</translation>
    </message>
    <message>
        <source>&amp;Allow my {provider} key for {host}</source>
        <translation>允許向 {host} 傳送我的 {provider} 金鑰(&amp;A)</translation>
    </message>
    <message>
        <source>Looking for local servers…</source>
        <translation>正在尋找本機伺服器……</translation>
    </message>
    <message>
        <source>The search failed — {kind}: {error}</source>
        <translation>尋找失敗——{kind}：{error}</translation>
    </message>
    <message>
        <source>{server} ({host}): running, no model loaded</source>
        <translation>{server}（{host}）：正在執行，未載入模型</translation>
    </message>
    <message>
        <source>Found %n model(s) on local servers.</source>
        <translation>在本機伺服器上找到 %n 個模型。</translation>
    </message>
    <message>
        <source>No local model server answered.</source>
        <translation>沒有本機模型伺服器回應。</translation>
    </message>
    <message>
        <source>Not used — {problem}</source>
        <translation>未使用——{problem}</translation>
    </message>
    <message>
        <source>Use local model {model}</source>
        <translation>使用本機模型 {model}</translation>
    </message>
    <message>
        <source>The design now uses {model} at {host} (no API key is sent there unless you allow one).</source>
        <translation>設計現在使用 {host} 上的 {model}（除非你允許，否則不會向那裡傳送 API 金鑰）。</translation>
    </message>
</context>
<context>
    <name>ThreadReplayView</name>
    <message>
        <source>Replay of a thread — Processor Studio</source>
        <translation>對話重播 — Processor Studio</translation>
    </message>
    <message>
        <source>Replaying the thread&apos;s runs through the current chain…</source>
        <translation>正在用目前處理鏈重播此對話的各次執行…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>執行</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>訊息</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>重播結果</translation>
    </message>
    <message>
        <source>Replayed {0} of {1} runs…</source>
        <translation>已重播 {0}/{1} 次執行…</translation>
    </message>
    <message>
        <source>not replayed: {0}</source>
        <translation>未重播：{0}</translation>
    </message>
    <message>
        <source>diverged at step {0}</source>
        <translation>在第 {0} 步出現分歧</translation>
    </message>
    <message>
        <source>same result</source>
        <translation>結果相同</translation>
    </message>
    <message>
        <source>The conversation diverged at run {0}, step {1}: the chain now asks the model something the recording does not have, so the replay stopped there.</source>
        <translation>對話在第 {0} 次執行的第 {1} 步出現分歧：處理鏈現在向模型提出的請求不在錄製中，因此重播在此停止。</translation>
    </message>
    <message>
        <source>Cancelled after {0} of {1} runs.</source>
        <translation>已取消：完成 {0}/{1} 次執行。</translation>
    </message>
    <message>
        <source>Replayed {0} of {1} runs, continued with the live model from run {2}, step {3}: {4} differ.</source>
        <translation>已重播 {0}/{1} 次執行，從第 {2} 次執行第 {3} 步起改用即時模型繼續：{4} 次結果不同。</translation>
    </message>
    <message>
        <source>Replayed {0} of {1} runs with no model call: {2} differ.</source>
        <translation>已重播 {0}/{1} 次執行，未呼叫模型：{2} 次結果不同。</translation>
    </message>
    <message>
        <source>Replayed {0} of {1} runs with no model call: the current chain gives the same results.</source>
        <translation>已重播 {0}/{1} 次執行，未呼叫模型：目前處理鏈的結果與原本相同。</translation>
    </message>
    <message>
        <source>The thread could not be replayed: {0}</source>
        <translation>無法重播此對話：{0}</translation>
    </message>
    <message>
        <source>Continuing with the live model from the run that diverged…</source>
        <translation>正在從出現分歧的執行起改用即時模型繼續…</translation>
    </message>
</context>
<context>
    <name>ThreadsController</name>
    <message>
        <source>Could not load the threads: {error}</source>
        <translation>無法載入對話：{error}</translation>
    </message>
    <message>
        <source>Could not create a thread: {error}</source>
        <translation>無法建立對話：{error}</translation>
    </message>
    <message>
        <source>Could not rename the thread: {error}</source>
        <translation>無法重新命名對話：{error}</translation>
    </message>
    <message>
        <source>Could not delete the thread: {error}</source>
        <translation>無法刪除對話：{error}</translation>
    </message>
    <message>
        <source>Could not restore the thread: {error}</source>
        <translation>無法還原對話：{error}</translation>
    </message>
    <message>
        <source>Could not empty the trash: {error}</source>
        <translation>無法清空資源回收筒：{error}</translation>
    </message>
    <message>
        <source>Could not read the trash: {error}</source>
        <translation>無法讀取資源回收筒：{error}</translation>
    </message>
</context>
<context>
    <name>ThreadsView</name>
    <message>
        <source>New conversation</source>
        <translation>新對話</translation>
    </message>
    <message>
        <source>Last activity {when}</source>
        <translation>最近活動 {when}</translation>
    </message>
    <message>
        <source>id {id}</source>
        <translation>ID {id}</translation>
    </message>
    <message>
        <source>Search threads</source>
        <translation>搜尋對話</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>New conversation (Ctrl+N)</source>
        <translation>新增對話（Ctrl+N）</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重新命名</translation>
    </message>
    <message>
        <source>Rename the selected conversation (F2)</source>
        <translation>重新命名所選對話（F2）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>刪除</translation>
    </message>
    <message>
        <source>Delete the selected conversation (Del)</source>
        <translation>刪除所選對話（Del）</translation>
    </message>
    <message>
        <source>Undo delete</source>
        <translation>復原刪除</translation>
    </message>
    <message>
        <source>New title, then Enter (Esc cancels)</source>
        <translation>輸入新標題後按 Enter（Esc 取消）</translation>
    </message>
    <message>
        <source>Bring back “{title}” (deleted conversations are kept {days} days)</source>
        <translation>還原「{title}」（已刪除的對話保留 {days} 天）</translation>
    </message>
    <message>
        <source>Replay the whole thread through the current chain</source>
        <translation>用目前處理鏈重播整個對話</translation>
    </message>
    <message>
        <source>Export its regression test again (current design)</source>
        <translation>再次匯出其回歸測試（目前設計）</translation>
    </message>
    <message>
        <source>Replay the exported run through the current chain and rewrite {0}</source>
        <translation>用目前處理鏈重播已匯出的執行，並重寫 {0}</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>刪除對話</translation>
    </message>
    <message>
        <source>Delete “{title}” and all its messages and traces? It stays in the trash for {days} days: “Undo delete” brings it back.</source>
        <translation>刪除「{title}」及其全部訊息和追蹤記錄？它會在資源回收筒中保留 {days} 天：按「復原刪除」即可還原。</translation>
    </message>
</context>
<context>
    <name>TracesSettings</name>
    <message>
        <source>Send traces to an &amp;OpenTelemetry backend</source>
        <translation>將追蹤傳送到 &amp;OpenTelemetry 後端</translation>
    </message>
    <message>
        <source>The OTLP/HTTP traces URL of a collector or backend</source>
        <translation>收集器或後端的 OTLP/HTTP 追蹤網址</translation>
    </message>
    <message>
        <source>Include message &amp;text in traces (redacted)</source>
        <translation>在追蹤中包含訊息文字（已遮蔽）(&amp;T)</translation>
    </message>
    <message>
        <source>OTEL_SDK_DISABLED is set: no traces are sent.</source>
        <translation>已設定 OTEL_SDK_DISABLED：不傳送任何追蹤。</translation>
    </message>
    <message>
        <source>The OTEL_* environment variables send the traces; they take precedence over this setting.</source>
        <translation>追蹤由 OTEL_* 環境變數傳送；它們優先於此設定。</translation>
    </message>
    <message>
        <source>Traces need the OpenTelemetry packages: pip install &apos;processor-studio[otel]&apos;.</source>
        <translation>傳送追蹤需要 OpenTelemetry 套件：pip install &apos;processor-studio[otel]&apos;。</translation>
    </message>
    <message>
        <source>{variable} is set: it decides whether message text is sent.</source>
        <translation>已設定 {variable}：由它決定是否傳送訊息文字。</translation>
    </message>
    <message>
        <source>On: each processor&apos;s before/after summary (it quotes the latest message, up to 80 characters), guardrail reasons and error messages are sent too, with what a guardrail masked, dropped or blocked sent as [REDACTED].</source>
        <translation>開啟：也會傳送每個處理器的前後摘要（引用最新一則訊息，最多 80 個字元）、護欄原因和錯誤訊息，護欄遮蔽、丟棄或攔截的內容以 [REDACTED] 代替。</translation>
    </message>
    <message>
        <source>Off: traces carry names, outcomes, times and token counts — no message text, no guardrail reason, no error message.</source>
        <translation>關閉：追蹤只包含名稱、結果、時間和詞元數——不含訊息文字、護欄原因或錯誤訊息。</translation>
    </message>
    <message>
        <source>Each run is sent as spans over OTLP/HTTP from the next run on (Jaeger, Grafana Tempo, Langfuse, Arize Phoenix).</source>
        <translation>從下一次執行起，每次執行都以 span 形式透過 OTLP/HTTP 傳送（Jaeger、Grafana Tempo、Langfuse、Arize Phoenix）。</translation>
    </message>
    <message>
        <source>Not saved: the endpoint must be an http:// or https:// URL.</source>
        <translation>未儲存：端點必須是 http:// 或 https:// 網址。</translation>
    </message>
</context>
<context>
    <name>UndoCommands</name>
    <message>
        <source>agent name</source>
        <translation>代理名稱</translation>
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
        <translation>MCP 伺服器</translation>
    </message>
    <message>
        <source>processor retries</source>
        <translation>處理器重試次數</translation>
    </message>
    <message>
        <source>maximum steps</source>
        <translation>最大步數</translation>
    </message>
    <message>
        <source>model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>API base</source>
        <translation>API 位址</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>溫度</translation>
    </message>
    <message>
        <source>maximum tokens</source>
        <translation>最大詞元數</translation>
    </message>
    <message>
        <source>top p</source>
        <translation>核取樣 top p</translation>
    </message>
    <message>
        <source>model settings</source>
        <translation>模型設定</translation>
    </message>
    <message>
        <source>input</source>
        <translation>輸入鏈</translation>
    </message>
    <message>
        <source>output</source>
        <translation>輸出鏈</translation>
    </message>
    <message>
        <source>error</source>
        <translation>錯誤鏈</translation>
    </message>
    <message>
        <source>Add {processor} to {lane}</source>
        <translation>將 {processor} 新增到{lane}</translation>
    </message>
    <message>
        <source>Remove {processor} from {lane}</source>
        <translation>從{lane}移除 {processor}</translation>
    </message>
    <message>
        <source>Move {processor}</source>
        <translation>移動 {processor}</translation>
    </message>
    <message>
        <source>Move {processor} to {lane}</source>
        <translation>將 {processor} 移到{lane}</translation>
    </message>
    <message>
        <source>Replace design</source>
        <translation>替換設計</translation>
    </message>
    <message>
        <source>Enable {processor}</source>
        <translation>啟用 {processor}</translation>
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
        <translation>更改 {processor} 的選項</translation>
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
        <translation>電子郵件</translation>
    </message>
    <message>
        <source>phone numbers</source>
        <translation>電話號碼</translation>
    </message>
    <message>
        <source>card numbers</source>
        <translation>信用卡號</translation>
    </message>
    <message>
        <source>social security numbers</source>
        <translation>美國社會安全號碼</translation>
    </message>
    <message>
        <source>API keys</source>
        <translation>API 金鑰</translation>
    </message>
    <message>
        <source>IP addresses</source>
        <translation>IP 位址</translation>
    </message>
    <message>
        <source>URLs</source>
        <translation>網址</translation>
    </message>
    <message>
        <source>UUIDs</source>
        <translation>UUID</translation>
    </message>
    <message>
        <source>crypto wallets</source>
        <translation>加密貨幣錢包</translation>
    </message>
    <message>
        <source>IBANs</source>
        <translation>IBAN 帳號</translation>
    </message>
    <message>
        <source>Chinese resident ID numbers</source>
        <translation>中國居民身分證號</translation>
    </message>
    <message>
        <source>Taiwan national ID numbers</source>
        <translation>臺灣身分證字號</translation>
    </message>
    <message>
        <source>Hong Kong ID numbers</source>
        <translation>香港身分證號碼</translation>
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
        <translation>匯出未遮蔽的值？</translation>
    </message>
    <message>
        <source>The file will hold, unmasked, values the guardrails hid in the chat: {kinds}.</source>
        <translation>該檔案將包含護欄在聊天中隱藏的值，且未遮蔽：{kinds}。</translation>
    </message>
    <message>
        <source>The regression test needs them to replay the run. Share the file as you would the conversation itself.</source>
        <translation>迴歸測試需要這些值來重播這次執行。請像對待對話本身一樣分享此檔案。</translation>
    </message>
    <message>
        <source>Export with the values</source>
        <translation>連同這些值匯出</translation>
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
        <translation>無法讀取已儲存的設計「{name}」：{error}</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>歡迎</translation>
    </message>
    <message>
        <source>Stop the running reply before switching threads.</source>
        <translation>切換對話前請先停止正在進行的回覆。</translation>
    </message>
    <message>
        <source>A reply is still running: stop it first (Esc).</source>
        <translation>仍有回覆正在進行：請先停止它（Esc）。</translation>
    </message>
    <message>
        <source>The agent could not be built: {error}</source>
        <translation>無法建立代理：{error}</translation>
    </message>
    <message>
        <source>Starting MCP servers: {names}…</source>
        <translation>正在啟動 MCP 伺服器：{names}…</translation>
    </message>
    <message>
        <source>Nothing was sent: {error}</source>
        <translation>未發送任何內容：{error}</translation>
    </message>
    <message>
        <source>Stopped while the MCP servers were starting; nothing was sent.</source>
        <translation>在 MCP 伺服器啟動期間已停止；未發送任何內容。</translation>
    </message>
    <message>
        <source>Nothing was sent: this design&apos;s MCP server &apos;{name}&apos; runs a program on this computer ({command}). Allow it when asked, then send again.</source>
        <translation>未發送任何內容：此設計的 MCP 伺服器「{name}」會在這台電腦上執行程式（{command}）。請在詢問時允許，然後再次發送。</translation>
    </message>
    <message>
        <source>Nothing was sent: you did not allow this design&apos;s MCP server &apos;{name}&apos; to run ({command}). Disable its tools in the Agent tab, or open the design again to be asked again.</source>
        <translation>未發送任何內容：您沒有允許此設計的 MCP 伺服器「{name}」執行（{command}）。請在「代理」分頁中停用它的工具，或重新開啟該設計以再次詢問。</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; was not started.</source>
        <translation>MCP 伺服器「{name}」未啟動。</translation>
    </message>
    <message>
        <source>MCP server &apos;{name}&apos; may now run; send again to use it.</source>
        <translation>MCP 伺服器「{name}」現在可以執行；再次發送即可使用。</translation>
    </message>
    <message>
        <source>No API key is set for {provider}. Add one in Settings → API keys (Ctrl+,), set the provider&apos;s environment variable, or pick the offline &apos;demo&apos; model in the Agent tab.</source>
        <translation>尚未為 {provider} 設定 API 金鑰。請在「設定 → API 金鑰」（Ctrl+,）中新增，或設定該供應商的環境變數，或在「代理」分頁中選擇離線的 demo 模型。</translation>
    </message>
    <message>
        <source>This message was sent there without a key.</source>
        <translation>此訊息已在不帶金鑰的情況下傳送到那裡。</translation>
    </message>
    <message>
        <source>Nothing was sent.</source>
        <translation>未傳送任何內容。</translation>
    </message>
    <message>
        <source>Your {provider} API key was not sent to {host}: it was saved for {saved_for}, and this design&apos;s model sends requests to {host}. {what_happened} If you trust {host}, allow your key there when asked (or in Settings → API keys and connection, Ctrl+,) and send again.</source>
        <translation>未把你的 {provider} API 金鑰傳送到 {host}：它是為 {saved_for} 儲存的，而此設計的模型會把請求傳送到 {host}。{what_happened}如果你信任 {host}，請在詢問時允許向其傳送金鑰（或在「設定 → API 金鑰與連線」中，Ctrl+,），然後重新傳送。</translation>
    </message>
    <message>
        <source>Your {provider} key stays away from {host}.</source>
        <translation>你的 {provider} 金鑰不會傳送到 {host}。</translation>
    </message>
    <message>
        <source>Your {provider} key may now be sent to {host}; send again to use it.</source>
        <translation>你的 {provider} 金鑰現在可以傳送到 {host}；重新傳送即可使用。</translation>
    </message>
    <message>
        <source>The key was not saved: &apos;{endpoint}&apos; is not an http or https address.</source>
        <translation>金鑰未儲存：「{endpoint}」不是 http 或 https 位址。</translation>
    </message>
    <message>
        <source>The key was saved in the system keyring, for {host} only.</source>
        <translation>金鑰已儲存到系統金鑰圈，僅用於 {host}。</translation>
    </message>
    <message>
        <source>The key is kept for this session only (no system keyring), for {host}.</source>
        <translation>金鑰僅在本次工作階段中保留（沒有系統金鑰圈），用於 {host}。</translation>
    </message>
    <message>
        <source>The key for {host} was removed.</source>
        <translation>{host} 的金鑰已刪除。</translation>
    </message>
    <message>
        <source>Tripwire: {reason} ({processor})</source>
        <translation>觸發攔截：{reason}（{processor}）</translation>
    </message>
    <message>
        <source>Opened {file}</source>
        <translation>已開啟 {file}</translation>
    </message>
    <message>
        <source>The design was not saved</source>
        <translation>設計未儲存</translation>
    </message>
    <message>
        <source>Saved {file}</source>
        <translation>已儲存 {file}</translation>
    </message>
    <message>
        <source>The script was not exported</source>
        <translation>指令碼未匯出</translation>
    </message>
    <message>
        <source>Exported {file} — run it with: python {file} (it needs {needs})</source>
        <translation>已匯出 {file}——執行方式：python {file}（需要 {needs}）</translation>
    </message>
    <message>
        <source>New agent</source>
        <translation>新代理</translation>
    </message>
    <message>
        <source>No thread is open.</source>
        <translation>沒有開啟的對話。</translation>
    </message>
    <message>
        <source>The thread was not exported</source>
        <translation>對話未匯出</translation>
    </message>
    <message>
        <source>Exported the thread to {file}</source>
        <translation>已將對話匯出到 {file}</translation>
    </message>
    <message>
        <source>The regression test cannot be exported again</source>
        <translation>無法再次匯出回歸測試</translation>
    </message>
    <message>
        <source>This run&apos;s regression test was never exported, or its file is gone.</source>
        <translation>此執行的回歸測試從未匯出過，或其檔案已不存在。</translation>
    </message>
    <message>
        <source>The regression test cannot be exported</source>
        <translation>無法匯出回歸測試</translation>
    </message>
    <message>
        <source>Replay the run first: the test asserts what the replay gave.</source>
        <translation>請先重播此執行：測試斷言的是重播得到的結果。</translation>
    </message>
    <message>
        <source>The regression test was not exported</source>
        <translation>回歸測試未匯出</translation>
    </message>
    <message>
        <source>Exported {0} — run it with: python -m pytest {0} (it needs only processors and pytest)</source>
        <translation>已匯出 {0} — 執行方式：python -m pytest {0}（只需要 processors 和 pytest）</translation>
    </message>
    <message>
        <source>Imported {file}</source>
        <translation>已匯入 {file}</translation>
    </message>
    <message>
        <source>Import stopped; nothing was written.</source>
        <translation>匯入已停止；未寫入任何內容。</translation>
    </message>
    <message>
        <source>%n message(s) (shown as placeholders)</source>
        <translation>%n 條訊息（顯示為預留位置）</translation>
    </message>
    <message>
        <source>the {fields} of %n run(s)</source>
        <translation>%n 次執行的 {fields}</translation>
    </message>
    <message>
        <source> and </source>
        <translation>和</translation>
    </message>
    <message>
        <source>Part of this thread&apos;s saved data is damaged and could not be read: {parts}. Everything else is intact; the details are in the log.</source>
        <translation>此對話的部分已儲存資料已損壞，無法讀取：{parts}。其餘內容完好；詳情見日誌。</translation>
    </message>
</context>
<context>
    <name>converter:atbash</name>
    <message>
        <source>Latin letters mirrored (Atbash: a becomes z, b becomes y).</source>
        <comment>atbash.description</comment>
        <translation>拉丁字母映象替換（Atbash：a 變 z，b 變 y）。</translation>
    </message>
</context>
<context>
    <name>converter:base32</name>
    <message>
        <source>The text as Base32 (UTF-8 bytes).</source>
        <comment>base32.description</comment>
        <translation>文本的 Base32 編碼（UTF-8 位元組）。</translation>
    </message>
</context>
<context>
    <name>converter:base64</name>
    <message>
        <source>The text as Base64 (UTF-8 bytes).</source>
        <comment>base64.description</comment>
        <translation>文本的 Base64 編碼（UTF-8 位元組）。</translation>
    </message>
</context>
<context>
    <name>converter:binary</name>
    <message>
        <source>The text&apos;s UTF-8 bytes as 8-digit binary numbers.</source>
        <comment>binary.description</comment>
        <translation>文本的 UTF-8 位元組寫成 8 位二進位制數。</translation>
    </message>
</context>
<context>
    <name>converter:caesar</name>
    <message>
        <source>Latin letters shifted by 3 (Caesar cipher: a becomes d).</source>
        <comment>caesar.description</comment>
        <translation>拉丁字母后移 3 位（凱撒密碼：a 變 d）。</translation>
    </message>
</context>
<context>
    <name>converter:chaizi</name>
    <message>
        <source>Known characters split into their components (拆字: 指 → 「扌旨」).</source>
        <comment>chaizi.description</comment>
        <translation>已知漢字拆成部件（拆字：指 → 「扌旨」）。</translation>
    </message>
</context>
<context>
    <name>converter:char-swap</name>
    <message>
        <source>Two neighbouring letters swapped in about a third of the longer words.</source>
        <comment>char-swap.description</comment>
        <translation>約三分之一的較長單字中有兩個相鄰字母互換。</translation>
    </message>
</context>
<context>
    <name>converter:diacritics</name>
    <message>
        <source>Every vowel with a random accent (á, è, ô, ü, ã).</source>
        <comment>diacritics.description</comment>
        <translation>每個母音加上隨機的變音符號（á、è、ô、ü、ã）。</translation>
    </message>
</context>
<context>
    <name>converter:document</name>
    <message>
        <source>The text as a note inside a document the user asks to summarise.</source>
        <comment>document.description</comment>
        <translation>文本作為一條備註藏在使用者要求總結的文件裡。</translation>
    </message>
</context>
<context>
    <name>converter:fullwidth</name>
    <message>
        <source>ASCII letters, digits and punctuation in their full-width forms (Ａ, ｂ, ！).</source>
        <comment>fullwidth.description</comment>
        <translation>ASCII 字母、數字和標點改用全形形式（Ａ、ｂ、！）。</translation>
    </message>
</context>
<context>
    <name>converter:hex</name>
    <message>
        <source>The text&apos;s UTF-8 bytes as lower-case hexadecimal.</source>
        <comment>hex.description</comment>
        <translation>文本的 UTF-8 位元組寫成小寫十六進位制。</translation>
    </message>
</context>
<context>
    <name>converter:homoglyph</name>
    <message>
        <source>About half the letters swapped for Cyrillic or Greek look-alikes.</source>
        <comment>homoglyph.description</comment>
        <translation>約一半字母換成形近的西里爾或希臘字母。</translation>
    </message>
</context>
<context>
    <name>converter:html-comment</name>
    <message>
        <source>The text hidden in an HTML comment inside a snippet to review.</source>
        <comment>html-comment.description</comment>
        <translation>文本藏在一段待檢查 HTML 程式碼的註釋裡。</translation>
    </message>
</context>
<context>
    <name>converter:identity</name>
    <message>
        <source>The text unchanged (the baseline).</source>
        <comment>identity.description</comment>
        <translation>文本保持不變（基線）。</translation>
    </message>
</context>
<context>
    <name>converter:leetspeak</name>
    <message>
        <source>Letters written as digits (a→4, e→3, i→1, o→0, s→5, t→7).</source>
        <comment>leetspeak.description</comment>
        <translation>字母寫成數字（a→4、e→3、i→1、o→0、s→5、t→7）。</translation>
    </message>
</context>
<context>
    <name>converter:letter-split</name>
    <message>
        <source>Each word&apos;s letters joined by -, ., _, *, / or |.</source>
        <comment>letter-split.description</comment>
        <translation>每個單字的字母之間用 -、.、_、*、/ 或 | 連線。</translation>
    </message>
</context>
<context>
    <name>converter:many-shot</name>
    <message>
        <source>8 fake exchanges where the assistant complied, then the text.</source>
        <comment>many-shot.description</comment>
        <translation>先給出 8 段助手都照做了的虛假對話，再給出文本。</translation>
    </message>
</context>
<context>
    <name>converter:markdown-comment</name>
    <message>
        <source>The text hidden in a Markdown comment inside harmless notes.</source>
        <comment>markdown-comment.description</comment>
        <translation>文本藏在一段無害筆記的 Markdown 註釋裡。</translation>
    </message>
</context>
<context>
    <name>converter:morse</name>
    <message>
        <source>Letters and digits in Morse code, words separated by &apos;/&apos; (reads back in lower case).</source>
        <comment>morse.description</comment>
        <translation>字母和數字寫成摩爾斯電碼，單字之間用「/」分隔（解碼後為小寫）。</translation>
    </message>
</context>
<context>
    <name>converter:pinyin</name>
    <message>
        <source>Chinese characters as pinyin with tone marks (hū lüè).</source>
        <comment>pinyin.description</comment>
        <translation>漢字寫成帶聲調的拼音（hū lüè）。</translation>
    </message>
</context>
<context>
    <name>converter:pinyin-initials</name>
    <message>
        <source>Each Chinese character as its pinyin&apos;s first letter (密码 → mm).</source>
        <comment>pinyin-initials.description</comment>
        <translation>每個漢字寫成其拼音的首字母（密码 → mm）。</translation>
    </message>
</context>
<context>
    <name>converter:pinyin-plain</name>
    <message>
        <source>Chinese characters as pinyin without tones (hu lve).</source>
        <comment>pinyin-plain.description</comment>
        <translation>漢字寫成不帶聲調的拼音（hu lve）。</translation>
    </message>
</context>
<context>
    <name>converter:prefix</name>
    <message>
        <source>A framing sentence before the text (authority, urgency or &apos;no caveats&apos;).</source>
        <comment>prefix.description</comment>
        <translation>在文本前加一句鋪墊（權威、緊急或「不要附加警告」）。</translation>
    </message>
</context>
<context>
    <name>converter:random-caps</name>
    <message>
        <source>Each letter upper or lower case at random.</source>
        <comment>random-caps.description</comment>
        <translation>每個字母隨機大寫或小寫。</translation>
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
        <translation>每個單字原地倒序。</translation>
    </message>
</context>
<context>
    <name>converter:role-play</name>
    <message>
        <source>The text said to a character who has no rules (role play).</source>
        <comment>role-play.description</comment>
        <translation>把文本說給一個沒有任何規則的角色聽（角色扮演）。</translation>
    </message>
</context>
<context>
    <name>converter:rot13</name>
    <message>
        <source>Latin letters rotated by 13 (ROT13; applying it twice gives the text back).</source>
        <comment>rot13.description</comment>
        <translation>拉丁字母輪轉 13 位（ROT13；做兩次即還原）。</translation>
    </message>
</context>
<context>
    <name>converter:spacing</name>
    <message>
        <source>A space between letters, three between words.</source>
        <comment>spacing.description</comment>
        <translation>字母之間加一個空格，單字之間加三個。</translation>
    </message>
</context>
<context>
    <name>converter:split-turns</name>
    <message>
        <source>The text cut into 2–3 user turns, the last asking to join and follow them.</source>
        <comment>split-turns.description</comment>
        <translation>文本拆成 2–3 輪使用者訊息，最後一輪要求拼起來照做。</translation>
    </message>
</context>
<context>
    <name>converter:story</name>
    <message>
        <source>The text inside a request for fiction (&apos;for a story&apos;, &apos;for a novel&apos;).</source>
        <comment>story.description</comment>
        <translation>文本包在一個寫小說的請求裡（「為了寫故事」「為了寫小說」）。</translation>
    </message>
</context>
<context>
    <name>converter:suffix</name>
    <message>
        <source>A sentence after the text asking for compliance without warnings.</source>
        <comment>suffix.description</comment>
        <translation>在文本後加一句話，要求照做且不要附加警告。</translation>
    </message>
</context>
<context>
    <name>converter:tag-smuggle</name>
    <message>
        <source>The text in invisible Unicode tag characters (U+E0020–U+E007E).</source>
        <comment>tag-smuggle.description</comment>
        <translation>文本寫成不可見的 Unicode 標籤字元（U+E0020–U+E007E）。</translation>
    </message>
</context>
<context>
    <name>converter:tool-result</name>
    <message>
        <source>The text as a field of a pasted JSON tool result.</source>
        <comment>tool-result.description</comment>
        <translation>文本作為貼上進來的 JSON 工具結果中的一個欄位。</translation>
    </message>
</context>
<context>
    <name>converter:typos</name>
    <message>
        <source>About one letter in twelve mistyped (a neighbouring key, doubled or dropped).</source>
        <comment>typos.description</comment>
        <translation>約每十二個字母打錯一個（按到相鄰鍵、重複或漏掉）。</translation>
    </message>
</context>
<context>
    <name>converter:url</name>
    <message>
        <source>Every byte percent-encoded (%49%67…), as in a URL.</source>
        <comment>url.description</comment>
        <translation>每個位元組都做百分號編碼（%49%67…），如同 URL 中那樣。</translation>
    </message>
</context>
<context>
    <name>converter:variables</name>
    <message>
        <source>The text cut into string variables to concatenate and follow.</source>
        <comment>variables.description</comment>
        <translation>文本拆成若干字串變數，要求拼接後照做。</translation>
    </message>
</context>
<context>
    <name>converter:zalgo</name>
    <message>
        <source>Combining marks stacked above and below every letter (zalgo text).</source>
        <comment>zalgo.description</comment>
        <translation>每個字母上下疊加組合符號（zalgo 文字）。</translation>
    </message>
</context>
<context>
    <name>converter:zero-width</name>
    <message>
        <source>Invisible zero-width characters between the letters of every word.</source>
        <comment>zero-width.description</comment>
        <translation>每個單字的字母之間插入不可見的零寬字元。</translation>
    </message>
</context>
<context>
    <name>converter:zh-en-mix</name>
    <message>
        <source>About half the known words in the other language (Chinese–English mixing).</source>
        <comment>zh-en-mix.description</comment>
        <translation>約一半已知詞語換成另一種語言（中英混雜）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-homophone</name>
    <message>
        <source>About half the known characters swapped for homophones (密码 → 蜜马).</source>
        <comment>zh-homophone.description</comment>
        <translation>約一半已知漢字換成同音字（密码 → 蜜马）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-lookalike</name>
    <message>
        <source>About half the known characters swapped for look-alikes (我 → 找).</source>
        <comment>zh-lookalike.description</comment>
        <translation>約一半已知漢字換成形近字（我 → 找）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-punct</name>
    <message>
        <source>Full-width punctuation, and separators (·、｜) between Chinese characters.</source>
        <comment>zh-punct.description</comment>
        <translation>使用全形標點，並在漢字之間插入分隔符（·、｜）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-s2t</name>
    <message>
        <source>Simplified Chinese written in Traditional characters (OpenCC s2t).</source>
        <comment>zh-s2t.description</comment>
        <translation>簡體中文改寫為繁體字（OpenCC s2t）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-t2s</name>
    <message>
        <source>Traditional Chinese written in Simplified characters (OpenCC t2s).</source>
        <comment>zh-t2s.description</comment>
        <translation>繁體中文改寫為簡體字（OpenCC t2s）。</translation>
    </message>
</context>
<context>
    <name>converter:zh-vertical</name>
    <message>
        <source>One character a line, as in vertical writing.</source>
        <comment>zh-vertical.description</comment>
        <translation>每行一個字元，如同豎排書寫。</translation>
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
        <translation>將每則訊息和工具結果傳送到 Azure AI Content Safety 的 Prompt Shields（託管服務）。</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <comment>AzurePromptShields.options.endpoint</comment>
        <translation>端點</translation>
    </message>
    <message>
        <source>Your Content Safety resource&apos;s endpoint (https://&lt;resource&gt;.cognitiveservices.azure.com)</source>
        <comment>AzurePromptShields.options.endpoint.help</comment>
        <translation>你的 Content Safety 資源的端點（https://&lt;resource&gt;.cognitiveservices.azure.com）</translation>
    </message>
    <message>
        <source>Time Limit</source>
        <comment>AzurePromptShields.options.time_limit</comment>
        <translation>時間限制</translation>
    </message>
    <message>
        <source>Seconds to wait for a verdict, waits for Retry-After included</source>
        <comment>AzurePromptShields.options.time_limit.help</comment>
        <translation>等待判定的秒數，包括依 Retry-After 等待的時間</translation>
    </message>
    <message>
        <source>On Failure</source>
        <comment>AzurePromptShields.options.on_failure</comment>
        <translation>失敗時</translation>
    </message>
    <message>
        <source>When the service gives no verdict (time limit, error, rate limit): block, or let the text through</source>
        <comment>AzurePromptShields.options.on_failure.help</comment>
        <translation>服務未給出判定時（逾時、出錯、限流）：攔截，或放行文字</translation>
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
        <translation>僅最後一條訊息</translation>
    </message>
    <message>
        <source>Check only the last user message</source>
        <comment>AzurePromptShields.options.last_message_only.help</comment>
        <translation>只檢查最後一則使用者訊息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>AzurePromptShields.options.check_tool_results</comment>
        <translation>檢查工具結果</translation>
    </message>
    <message>
        <source>In the output lane: check tool results too</source>
        <comment>AzurePromptShields.options.check_tool_results.help</comment>
        <translation>在輸出通道中：也檢查工具結果</translation>
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
        <translation>{service} 標記了輸入：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the answer: {categories} (score {score:.2f})</source>
        <comment>AzurePromptShields.flagged_answer</comment>
        <translation>{service} 標記了回答：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the result of tool &apos;{tool}&apos;: {categories} (score {score:.2f})</source>
        <comment>AzurePromptShields.flagged_tool</comment>
        <translation>{service} 標記了工具「{tool}」的結果：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} gave no verdict within {seconds:g} s; blocked (fail-closed)</source>
        <comment>AzurePromptShields.timeout</comment>
        <translation>{service} 未在 {seconds:g} 秒內給出判定；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} is rate-limiting this key (HTTP 429); blocked (fail-closed)</source>
        <comment>AzurePromptShields.rate_limited</comment>
        <translation>{service} 正在限制此金鑰的請求頻率（HTTP 429）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} failed (HTTP {status}); blocked (fail-closed)</source>
        <comment>AzurePromptShields.server_error</comment>
        <translation>{service} 出錯（HTTP {status}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} refused the API key for {host} (HTTP {status}); blocked (fail-closed)</source>
        <comment>AzurePromptShields.unauthorized</comment>
        <translation>{service} 拒絕了用於 {host} 的 API 金鑰（HTTP {status}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} refused the request (HTTP {status}: {detail}); blocked (fail-closed)</source>
        <comment>AzurePromptShields.rejected</comment>
        <translation>{service} 拒絕了請求（HTTP {status}：{detail}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} at {host} cannot be reached ({detail}); blocked (fail-closed)</source>
        <comment>AzurePromptShields.unreachable</comment>
        <translation>無法連線位於 {host} 的 {service}（{detail}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} answered in a form it does not document; blocked (fail-closed)</source>
        <comment>AzurePromptShields.malformed</comment>
        <translation>{service} 回傳了其文件中沒有的格式；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>No API key for {service} at {host}: save one with the Key button, or set {variable}; blocked (fail-closed)</source>
        <comment>AzurePromptShields.no_key</comment>
        <translation>沒有用於 {host} 上 {service} 的 API 金鑰：用「金鑰…」按鈕儲存一個，或設定 {variable}；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} has nothing to call: fill in its endpoint (and template); blocked (fail-closed)</source>
        <comment>AzurePromptShields.no_endpoint</comment>
        <translation>{service} 沒有可呼叫的位址：請填寫其端點（和範本）；已攔截（出錯時攔截）</translation>
    </message>
</context>
<context>
    <name>processor:BatchParts</name>
    <message>
        <source>Batch Parts</source>
        <comment>BatchParts.name</comment>
        <translation>分批合併</translation>
    </message>
    <message>
        <source>Combines streamed text deltas into larger chunks: fewer, bigger updates for clients.</source>
        <comment>BatchParts.description</comment>
        <translation>把串流文字增量合併成更大的資料塊：客戶端收到的更新更少、更大。</translation>
    </message>
    <message>
        <source>Batch Size</source>
        <comment>BatchParts.options.batch_size</comment>
        <translation>批大小</translation>
    </message>
    <message>
        <source>How many parts to combine into one.</source>
        <comment>BatchParts.options.batch_size.help</comment>
        <translation>每批合併多少個部分。</translation>
    </message>
    <message>
        <source>Max Wait Ms</source>
        <comment>BatchParts.options.max_wait_ms</comment>
        <translation>最長等待（毫秒）</translation>
    </message>
    <message>
        <source>Release a batch whose first part has waited this long (checked when the next part arrives).</source>
        <comment>BatchParts.options.max_wait_ms.help</comment>
        <translation>批中第一個部分等待達到此時長即放行該批（在下一個部分到達時檢查）。</translation>
    </message>
    <message>
        <source>Emit On Non Text</source>
        <comment>BatchParts.options.emit_on_non_text</comment>
        <translation>遇非文字即放行</translation>
    </message>
    <message>
        <source>Release the batch as soon as a non-text part (tool call, text end ...) arrives; when off, other parts wait in the batch in stream order (a text end still releases it).</source>
        <comment>BatchParts.options.emit_on_non_text.help</comment>
        <translation>一旦收到非文字部分（工具呼叫、文字結束……）就放行該批；關閉時，其他部分依串流順序在批中等待（文字結束仍會放行）。</translation>
    </message>
</context>
<context>
    <name>processor:ClassifierGuard</name>
    <message>
        <source>Classifier guard</source>
        <comment>ClassifierGuard.name</comment>
        <translation>分類器防護</translation>
    </message>
    <message>
        <source>Runs a text-classification model from a local folder (ONNX) and flags texts it scores as attacks.</source>
        <comment>ClassifierGuard.description</comment>
        <translation>執行本機資料夾中的文字分類模型（ONNX），標記被判為攻擊的文字。</translation>
    </message>
    <message>
        <source>Model Folder</source>
        <comment>ClassifierGuard.options.model_folder</comment>
        <translation>模型資料夾</translation>
    </message>
    <message>
        <source>Folder with the model&apos;s .onnx file, tokenizer.json and config.json</source>
        <comment>ClassifierGuard.options.model_folder.help</comment>
        <translation>包含模型 .onnx 檔案、tokenizer.json 與 config.json 的資料夾</translation>
    </message>
    <message>
        <source>Attack Label</source>
        <comment>ClassifierGuard.options.attack_label</comment>
        <translation>攻擊標籤</translation>
    </message>
    <message>
        <source>The model&apos;s label that means attack (empty: the second of two labels)</source>
        <comment>ClassifierGuard.options.attack_label.help</comment>
        <translation>模型中代表攻擊的標籤（留空：兩個標籤中的第二個）</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>ClassifierGuard.options.threshold</comment>
        <translation>臨界值</translation>
    </message>
    <message>
        <source>Flag a text whose attack score reaches this</source>
        <comment>ClassifierGuard.options.threshold.help</comment>
        <translation>攻擊分數達到此值的文字會被標記</translation>
    </message>
    <message>
        <source>Max Length</source>
        <comment>ClassifierGuard.options.max_length</comment>
        <translation>最大長度</translation>
    </message>
    <message>
        <source>Tokens per window the model reads</source>
        <comment>ClassifierGuard.options.max_length.help</comment>
        <translation>模型每個視窗讀取的詞元數</translation>
    </message>
    <message>
        <source>Stride</source>
        <comment>ClassifierGuard.options.stride</comment>
        <translation>重疊步長</translation>
    </message>
    <message>
        <source>Tokens two windows of a long text share</source>
        <comment>ClassifierGuard.options.stride.help</comment>
        <translation>長文字相鄰兩個視窗共有的詞元數</translation>
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
        <translation>僅最後一條訊息</translation>
    </message>
    <message>
        <source>Check only the last message</source>
        <comment>ClassifierGuard.options.last_message_only.help</comment>
        <translation>只檢查最後一條訊息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>ClassifierGuard.options.check_tool_results</comment>
        <translation>檢查工具結果</translation>
    </message>
    <message>
        <source>In the output lane: check tool results too</source>
        <comment>ClassifierGuard.options.check_tool_results.help</comment>
        <translation>在輸出通道中：也檢查工具結果</translation>
    </message>
    <message>
        <source>ONNX file</source>
        <comment>ClassifierGuard.options.onnx_file</comment>
        <translation>ONNX 檔案</translation>
    </message>
    <message>
        <source>The .onnx file to run when the folder holds several</source>
        <comment>ClassifierGuard.options.onnx_file.help</comment>
        <translation>資料夾中有多個 .onnx 檔案時要執行的那個</translation>
    </message>
    <message>
        <source>No model folder chosen</source>
        <comment>ClassifierGuard.folder_not_chosen</comment>
        <translation>未選擇模型資料夾</translation>
    </message>
    <message>
        <source>Model folder not found: {folder}</source>
        <comment>ClassifierGuard.folder_not_found</comment>
        <translation>找不到模型資料夾：{folder}</translation>
    </message>
    <message>
        <source>No config.json in the model folder {folder}</source>
        <comment>ClassifierGuard.no_config</comment>
        <translation>模型資料夾 {folder} 中沒有 config.json</translation>
    </message>
    <message>
        <source>config.json in {folder} is not readable JSON: {error}</source>
        <comment>ClassifierGuard.unreadable_config</comment>
        <translation>{folder} 中的 config.json 不是可讀取的 JSON：{error}</translation>
    </message>
    <message>
        <source>config.json in {folder} has no id2label (the model&apos;s class names)</source>
        <comment>ClassifierGuard.no_labels</comment>
        <translation>{folder} 中的 config.json 沒有 id2label（模型的類別名稱）</translation>
    </message>
    <message>
        <source>{file} not found in the model folder {folder}</source>
        <comment>ClassifierGuard.named_onnx_missing</comment>
        <translation>在模型資料夾 {folder} 中找不到 {file}</translation>
    </message>
    <message>
        <source>Several ONNX files in {folder} ({files}): name the one to use</source>
        <comment>ClassifierGuard.several_onnx</comment>
        <translation>{folder} 中有多個 ONNX 檔案（{files}）：請指定要使用的檔案</translation>
    </message>
    <message>
        <source>No .onnx file in the model folder {folder} (export one with optimum-cli)</source>
        <comment>ClassifierGuard.no_onnx</comment>
        <translation>模型資料夾 {folder} 中沒有 .onnx 檔案（可用 optimum-cli 匯出）</translation>
    </message>
    <message>
        <source>No tokenizer.json in the model folder {folder}</source>
        <comment>ClassifierGuard.no_tokenizer</comment>
        <translation>模型資料夾 {folder} 中沒有 tokenizer.json</translation>
    </message>
    <message>
        <source>tokenizer.json in {folder} is not a tokenizers file: {error}</source>
        <comment>ClassifierGuard.bad_tokenizer</comment>
        <translation>{folder} 中的 tokenizer.json 不是 tokenizers 檔案：{error}</translation>
    </message>
    <message>
        <source>{file} is not a model onnxruntime can run: {error}</source>
        <comment>ClassifierGuard.bad_onnx</comment>
        <translation>{file} 不是 onnxruntime 能執行的模型：{error}</translation>
    </message>
    <message>
        <source>{file} takes the inputs {inputs}; a text classifier takes input_ids (and optionally attention_mask, token_type_ids)</source>
        <comment>ClassifierGuard.bad_inputs</comment>
        <translation>{file} 的輸入是 {inputs}；文字分類模型的輸入應為 input_ids（可另有 attention_mask、token_type_ids）</translation>
    </message>
    <message>
        <source>stride {stride} must be smaller than max_length {max_length} minus the model&apos;s {special} special tokens</source>
        <comment>ClassifierGuard.bad_stride</comment>
        <translation>stride {stride} 必須小於 max_length {max_length} 減去模型的 {special} 個特殊標記</translation>
    </message>
    <message>
        <source>the model answers {scores} scores per text, config.json names {count} labels</source>
        <comment>ClassifierGuard.bad_outputs</comment>
        <translation>模型對每段文字給出 {scores} 個分數，而 config.json 列出了 {count} 個標籤</translation>
    </message>
    <message>
        <source>{folder} holds PyTorch/safetensors weights and no .onnx file: install the transformers extra (pip install &apos;processor-studio[transformers]&apos;) or export the model to ONNX (optimum-cli export onnx --task text-classification)</source>
        <comment>ClassifierGuard.needs_transformers</comment>
        <translation>{folder} 中只有 PyTorch/safetensors 權重，沒有 .onnx 檔案：請安裝 transformers 擴充（pip install &apos;processor-studio[transformers]&apos;），或將模型匯出為 ONNX（optimum-cli export onnx --task text-classification）</translation>
    </message>
    <message>
        <source>The model has the labels {labels}: choose the one that means attack</source>
        <comment>ClassifierGuard.choose_label</comment>
        <translation>模型的標籤為 {labels}：請選擇代表攻擊的那一個</translation>
    </message>
    <message>
        <source>The model has no label {label}; its labels: {labels}</source>
        <comment>ClassifierGuard.unknown_label</comment>
        <translation>模型沒有標籤 {label}；它的標籤：{labels}</translation>
    </message>
    <message>
        <source>Classifier flagged the input: {label} score {score:.2f} (threshold {threshold:.2f})</source>
        <comment>ClassifierGuard.flagged_input</comment>
        <translation>分類器標記了輸入：{label} 分數 {score:.2f}（臨界值 {threshold:.2f}）</translation>
    </message>
    <message>
        <source>Classifier flagged the answer: {label} score {score:.2f} (threshold {threshold:.2f})</source>
        <comment>ClassifierGuard.flagged_answer</comment>
        <translation>分類器標記了回答：{label} 分數 {score:.2f}（臨界值 {threshold:.2f}）</translation>
    </message>
    <message>
        <source>Classifier flagged the result of tool &apos;{tool}&apos;: {label} score {score:.2f} (threshold {threshold:.2f})</source>
        <comment>ClassifierGuard.flagged_tool</comment>
        <translation>分類器標記了工具「{tool}」的結果：{label} 分數 {score:.2f}（臨界值 {threshold:.2f}）</translation>
    </message>
</context>
<context>
    <name>processor:ClassifierGuardOptions</name>
    <message>
        <source>stride must be smaller than max_length</source>
        <comment>ClassifierGuardOptions.stride_too_long</comment>
        <translation>stride 必須小於 max_length</translation>
    </message>
</context>
<context>
    <name>processor:CostGuard</name>
    <message>
        <source>Cost Guard</source>
        <comment>CostGuard.name</comment>
        <translation>費用守衛</translation>
    </message>
    <message>
        <source>A spending budget per run, thread or user, priced with litellm&apos;s offline price map.</source>
        <comment>CostGuard.description</comment>
        <translation>按執行、對話或使用者設定的花費預算，用 litellm 的離線價格表計價。</translation>
    </message>
    <message>
        <source>Max Cost</source>
        <comment>CostGuard.options.max_cost</comment>
        <translation>費用上限</translation>
    </message>
    <message>
        <source>The budget in US dollars.</source>
        <comment>CostGuard.options.max_cost.help</comment>
        <translation>預算金額（美元）。</translation>
    </message>
    <message>
        <source>Scope</source>
        <comment>CostGuard.options.scope</comment>
        <translation>範圍</translation>
    </message>
    <message>
        <source>What the budget is for: one run, one conversation, or one user.</source>
        <comment>CostGuard.options.scope.help</comment>
        <translation>預算針對的物件：一次執行、一個對話或一個使用者。</translation>
    </message>
    <message>
        <source>Window Hours</source>
        <comment>CostGuard.options.window_hours</comment>
        <translation>時間視窗（小時）</translation>
    </message>
    <message>
        <source>Only spending in this many past hours counts (unset: since the ledger began).</source>
        <comment>CostGuard.options.window_hours.help</comment>
        <translation>只計算過去這麼多小時內的花費（未設定：從帳本開始算起）。</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>CostGuard.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>Over budget: refuse the model call (block) or only report it (warn).</source>
        <comment>CostGuard.options.strategy.help</comment>
        <translation>超出預算時：拒絕模型呼叫（block）或僅報告（warn）。</translation>
    </message>
    <message>
        <source>Message</source>
        <comment>CostGuard.options.message</comment>
        <translation>訊息</translation>
    </message>
    <message>
        <source>The tripwire reason when blocking (a default names the budget).</source>
        <comment>CostGuard.options.message.help</comment>
        <translation>攔截時的觸發原因（預設會寫明預算）。</translation>
    </message>
    <message>
        <source>Warn At Percent</source>
        <comment>CostGuard.options.warn_at_percent</comment>
        <translation>預警百分比</translation>
    </message>
    <message>
        <source>Report a soft warning once this share of the budget is spent.</source>
        <comment>CostGuard.options.warn_at_percent.help</comment>
        <translation>預算花費達到此比例時發出軟警告。</translation>
    </message>
    <message>
        <source>Include Breakdown</source>
        <comment>CostGuard.options.include_breakdown</comment>
        <translation>包含明細</translation>
    </message>
    <message>
        <source>Add a per-model cost breakdown to the metadata.</source>
        <comment>CostGuard.options.include_breakdown.help</comment>
        <translation>在中繼資料中加入按模型劃分的費用明細。</translation>
    </message>
    <message>
        <source>Price Model</source>
        <comment>CostGuard.options.price_model</comment>
        <translation>計價模型</translation>
    </message>
    <message>
        <source>Price calls as this model (litellm&apos;s name, e.g. gpt-4o-mini) instead of the run&apos;s model.</source>
        <comment>CostGuard.options.price_model.help</comment>
        <translation>按此模型計價（litellm 中的名稱，如 gpt-4o-mini），而不是按本次執行的模型。</translation>
    </message>
    <message>
        <source>Input Cost Per Million</source>
        <comment>CostGuard.options.input_cost_per_million</comment>
        <translation>每百萬輸入詞元費用</translation>
    </message>
    <message>
        <source>USD per million input tokens (overrides the price map).</source>
        <comment>CostGuard.options.input_cost_per_million.help</comment>
        <translation>每百萬輸入詞元的美元價格（覆蓋價格表）。</translation>
    </message>
    <message>
        <source>Output Cost Per Million</source>
        <comment>CostGuard.options.output_cost_per_million</comment>
        <translation>每百萬輸出詞元費用</translation>
    </message>
    <message>
        <source>USD per million output tokens (overrides the price map).</source>
        <comment>CostGuard.options.output_cost_per_million.help</comment>
        <translation>每百萬輸出詞元的美元價格（覆蓋價格表）。</translation>
    </message>
    <message>
        <source>Cost budget of ${budget} for this {scope} is used up (spent ${spent})</source>
        <comment>CostGuard.used_up</comment>
        <translation>此{scope}的費用預算 ${budget} 已用完（已花費 ${spent}）</translation>
    </message>
    <message>
        <source>Cost budget of ${budget} for this {scope} is {share:.0%} spent (${spent})</source>
        <comment>CostGuard.nearly_used</comment>
        <translation>此{scope}的費用預算 ${budget} 已用掉 {share:.0%}（已花費 ${spent}）</translation>
    </message>
    <message>
        <source>run</source>
        <comment>CostGuard.scope=run</comment>
        <translation>執行</translation>
    </message>
    <message>
        <source>thread</source>
        <comment>CostGuard.scope=thread</comment>
        <translation>對話</translation>
    </message>
    <message>
        <source>resource</source>
        <comment>CostGuard.scope=resource</comment>
        <translation>使用者</translation>
    </message>
</context>
<context>
    <name>processor:JudgeOptions</name>
    <message>
        <source>must be a model id string (e.g. &apos;openai/gpt-4o-mini&apos;) or a LanguageModel object</source>
        <comment>JudgeOptions.model_kind</comment>
        <translation>必須是模型 ID 字串（如 &apos;openai/gpt-4o-mini&apos;）或 LanguageModel 物件</translation>
    </message>
    <message>
        <source>judge_preset: unknown preset (known: {known})</source>
        <comment>JudgeOptions.unknown_preset</comment>
        <translation>judge_preset：未知的預設（可用：{known}）</translation>
    </message>
    <message>
        <source>must be a local server (localhost, 127.0.0.1 or ::1); a hosted judge needs no api_base</source>
        <comment>JudgeOptions.local_only</comment>
        <translation>必須是本機伺服器（localhost、127.0.0.1 或 ::1）；託管的評判模型不需要 api_base</translation>
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
        <translation>將每則訊息傳送到 Lakera Guard（託管服務），並攔截其政策標記的內容。</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <comment>LakeraGuard.options.endpoint</comment>
        <translation>端點</translation>
    </message>
    <message>
        <source>Lakera Guard&apos;s address (a self-hosted Guard&apos;s too); the API key is bound to it</source>
        <comment>LakeraGuard.options.endpoint.help</comment>
        <translation>Lakera Guard 的位址（也可以是自行託管的 Guard）；API 金鑰與它綁定</translation>
    </message>
    <message>
        <source>Time Limit</source>
        <comment>LakeraGuard.options.time_limit</comment>
        <translation>時間限制</translation>
    </message>
    <message>
        <source>Seconds to wait for a verdict, waits for Retry-After included</source>
        <comment>LakeraGuard.options.time_limit.help</comment>
        <translation>等待判定的秒數，包括依 Retry-After 等待的時間</translation>
    </message>
    <message>
        <source>On Failure</source>
        <comment>LakeraGuard.options.on_failure</comment>
        <translation>失敗時</translation>
    </message>
    <message>
        <source>When the service gives no verdict (time limit, error, rate limit): block, or let the text through</source>
        <comment>LakeraGuard.options.on_failure.help</comment>
        <translation>服務未給出判定時（逾時、出錯、限流）：攔截，或放行文字</translation>
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
        <translation>僅最後一條訊息</translation>
    </message>
    <message>
        <source>Check only the last user message</source>
        <comment>LakeraGuard.options.last_message_only.help</comment>
        <translation>只檢查最後一則使用者訊息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>LakeraGuard.options.check_tool_results</comment>
        <translation>檢查工具結果</translation>
    </message>
    <message>
        <source>In the output lane: check tool results too</source>
        <comment>LakeraGuard.options.check_tool_results.help</comment>
        <translation>在輸出通道中：也檢查工具結果</translation>
    </message>
    <message>
        <source>Project ID</source>
        <comment>LakeraGuard.options.project_id</comment>
        <translation>專案 ID</translation>
    </message>
    <message>
        <source>The Lakera project whose policy screens (empty: the default)</source>
        <comment>LakeraGuard.options.project_id.help</comment>
        <translation>用其政策進行篩查的 Lakera 專案（留空：預設專案）</translation>
    </message>
    <message>
        <source>Check Answers</source>
        <comment>LakeraGuard.options.check_answers</comment>
        <translation>檢查回答</translation>
    </message>
    <message>
        <source>In the output lane: check the model&apos;s answer too</source>
        <comment>LakeraGuard.options.check_answers.help</comment>
        <translation>在輸出通道中：也檢查模型的回答</translation>
    </message>
    <message>
        <source>{service} flagged the input: {categories} (score {score:.2f})</source>
        <comment>LakeraGuard.flagged_input</comment>
        <translation>{service} 標記了輸入：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the answer: {categories} (score {score:.2f})</source>
        <comment>LakeraGuard.flagged_answer</comment>
        <translation>{service} 標記了回答：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the result of tool &apos;{tool}&apos;: {categories} (score {score:.2f})</source>
        <comment>LakeraGuard.flagged_tool</comment>
        <translation>{service} 標記了工具「{tool}」的結果：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} gave no verdict within {seconds:g} s; blocked (fail-closed)</source>
        <comment>LakeraGuard.timeout</comment>
        <translation>{service} 未在 {seconds:g} 秒內給出判定；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} is rate-limiting this key (HTTP 429); blocked (fail-closed)</source>
        <comment>LakeraGuard.rate_limited</comment>
        <translation>{service} 正在限制此金鑰的請求頻率（HTTP 429）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} failed (HTTP {status}); blocked (fail-closed)</source>
        <comment>LakeraGuard.server_error</comment>
        <translation>{service} 出錯（HTTP {status}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} refused the API key for {host} (HTTP {status}); blocked (fail-closed)</source>
        <comment>LakeraGuard.unauthorized</comment>
        <translation>{service} 拒絕了用於 {host} 的 API 金鑰（HTTP {status}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} refused the request (HTTP {status}: {detail}); blocked (fail-closed)</source>
        <comment>LakeraGuard.rejected</comment>
        <translation>{service} 拒絕了請求（HTTP {status}：{detail}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} at {host} cannot be reached ({detail}); blocked (fail-closed)</source>
        <comment>LakeraGuard.unreachable</comment>
        <translation>無法連線位於 {host} 的 {service}（{detail}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} answered in a form it does not document; blocked (fail-closed)</source>
        <comment>LakeraGuard.malformed</comment>
        <translation>{service} 回傳了其文件中沒有的格式；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>No API key for {service} at {host}: save one with the Key button, or set {variable}; blocked (fail-closed)</source>
        <comment>LakeraGuard.no_key</comment>
        <translation>沒有用於 {host} 上 {service} 的 API 金鑰：用「金鑰…」按鈕儲存一個，或設定 {variable}；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} has nothing to call: fill in its endpoint (and template); blocked (fail-closed)</source>
        <comment>LakeraGuard.no_endpoint</comment>
        <translation>{service} 沒有可呼叫的位址：請填寫其端點（和範本）；已攔截（出錯時攔截）</translation>
    </message>
</context>
<context>
    <name>processor:LanguageDetector</name>
    <message>
        <source>Language detector</source>
        <comment>LanguageDetector.name</comment>
        <translation>語言偵測器</translation>
    </message>
    <message>
        <source>Detects the language of input messages offline; tags, translates (model), blocks or warns.</source>
        <comment>LanguageDetector.description</comment>
        <translation>離線偵測輸入訊息的語言；可標記、翻譯（需模型）、攔截或警告。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>LanguageDetector.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>A LanguageModel object or a litellm model id string</source>
        <comment>LanguageDetector.options.model.help</comment>
        <translation>LanguageModel 物件或 litellm 模型 ID 字串</translation>
    </message>
    <message>
        <source>Judge Preset</source>
        <comment>LanguageDetector.options.judge_preset</comment>
        <translation>判定器預設</translation>
    </message>
    <message>
        <source>A ready-made judge on a local server (sets model and api_base when model is empty)</source>
        <comment>LanguageDetector.options.judge_preset.help</comment>
        <translation>本機伺服器上的現成判定器（model 為空時設定 model 和 api_base）</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>LanguageDetector.options.error_strategy</comment>
        <translation>出錯策略</translation>
    </message>
    <message>
        <source>When the judge fails: go on without it (fail-open) or abort (fail-closed)</source>
        <comment>LanguageDetector.options.error_strategy.help</comment>
        <translation>判定器出錯時：不用它繼續（fail-open）或中止（fail-closed）</translation>
    </message>
    <message>
        <source>Api Base</source>
        <comment>LanguageDetector.options.api_base</comment>
        <translation>API 位址</translation>
    </message>
    <message>
        <source>The judge&apos;s server, for a local OpenAI-compatible one (http://localhost:11434/v1)</source>
        <comment>LanguageDetector.options.api_base.help</comment>
        <translation>判定器所在的伺服器，用於本機 OpenAI 相容伺服器（http://localhost:11434/v1）</translation>
    </message>
    <message>
        <source>Timeout</source>
        <comment>LanguageDetector.options.timeout</comment>
        <translation>逾時</translation>
    </message>
    <message>
        <source>Seconds the judge may take to answer</source>
        <comment>LanguageDetector.options.timeout.help</comment>
        <translation>判定器回答可用的秒數</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>LanguageDetector.options.threshold</comment>
        <translation>臨界值</translation>
    </message>
    <message>
        <source>Confidence needed to act on a detection</source>
        <comment>LanguageDetector.options.threshold.help</comment>
        <translation>對偵測結果採取行動所需的信賴度</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>LanguageDetector.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions appended to the judge&apos;s prompt</source>
        <comment>LanguageDetector.options.instructions.help</comment>
        <translation>追加到判定器提示詞後的額外指令</translation>
    </message>
    <message>
        <source>Target Languages</source>
        <comment>LanguageDetector.options.target_languages</comment>
        <translation>目標語言</translation>
    </message>
    <message>
        <source>Accepted languages: English names or ISO 639-1 codes</source>
        <comment>LanguageDetector.options.target_languages.help</comment>
        <translation>接受的語言：英文名稱或 ISO 639-1 程式碼</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>LanguageDetector.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>detect (tag only), translate (needs a model), block or warn</source>
        <comment>LanguageDetector.options.strategy.help</comment>
        <translation>detect（僅標記）、translate（需要模型）、block 或 warn</translation>
    </message>
    <message>
        <source>Preserve Original</source>
        <comment>LanguageDetector.options.preserve_original</comment>
        <translation>保留原文</translation>
    </message>
    <message>
        <source>Keep the original text in the metadata on translate</source>
        <comment>LanguageDetector.options.preserve_original.help</comment>
        <translation>翻譯時在中繼資料中保留原文</translation>
    </message>
    <message>
        <source>Min Text Length</source>
        <comment>LanguageDetector.options.min_text_length</comment>
        <translation>最短文字長度</translation>
    </message>
    <message>
        <source>Shorter messages are not checked</source>
        <comment>LanguageDetector.options.min_text_length.help</comment>
        <translation>更短的訊息不檢查</translation>
    </message>
    <message>
        <source>Include Detection Details</source>
        <comment>LanguageDetector.options.include_detection_details</comment>
        <translation>包含偵測詳情</translation>
    </message>
    <message>
        <source>Add the top three candidates to the metadata</source>
        <comment>LanguageDetector.options.include_detection_details.help</comment>
        <translation>在中繼資料中加入前三個候選</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>LanguageDetector.options.last_message_only</comment>
        <translation>僅最後一條訊息</translation>
    </message>
    <message>
        <source>Check only the last message</source>
        <comment>LanguageDetector.options.last_message_only.help</comment>
        <translation>只檢查最後一條訊息</translation>
    </message>
    <message>
        <source>Non-target language detected: {language} ({code}, confidence {confidence:.2f})</source>
        <comment>LanguageDetector.not_target</comment>
        <translation>偵測到非目標語言：{language}（{code}，信賴度 {confidence:.2f}）</translation>
    </message>
    <message>
        <source>Translation failed because the judge model call failed: {error}</source>
        <comment>LanguageDetector.judge_failed</comment>
        <translation>翻譯失敗，因為判定模型呼叫失敗：{error}</translation>
    </message>
</context>
<context>
    <name>processor:LanguageDetectorOptions</name>
    <message>
        <source>name at least one target language</source>
        <comment>LanguageDetectorOptions.no_language</comment>
        <translation>請至少指定一種目標語言</translation>
    </message>
    <message>
        <source>unknown languages {languages}: use English names or ISO 639-1 codes</source>
        <comment>LanguageDetectorOptions.unknown_languages</comment>
        <translation>未知的語言 {languages}：請使用英文名稱或 ISO 639-1 代碼</translation>
    </message>
    <message>
        <source>model: the &apos;translate&apos; strategy needs a model</source>
        <comment>LanguageDetectorOptions.translate_needs_model</comment>
        <translation>model：&apos;translate&apos; 策略需要一個模型</translation>
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
        <translation>將每則訊息傳送到 Google Cloud Model Armor（託管服務），並攔截其範本的篩選器比對到的內容。</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <comment>ModelArmor.options.endpoint</comment>
        <translation>端點</translation>
    </message>
    <message>
        <source>Model Armor&apos;s regional address (the template&apos;s location); the access token is bound to it</source>
        <comment>ModelArmor.options.endpoint.help</comment>
        <translation>Model Armor 的區域位址（範本所在的位置）；存取權杖與它綁定</translation>
    </message>
    <message>
        <source>Time Limit</source>
        <comment>ModelArmor.options.time_limit</comment>
        <translation>時間限制</translation>
    </message>
    <message>
        <source>Seconds to wait for a verdict, waits for Retry-After included</source>
        <comment>ModelArmor.options.time_limit.help</comment>
        <translation>等待判定的秒數，包括依 Retry-After 等待的時間</translation>
    </message>
    <message>
        <source>On Failure</source>
        <comment>ModelArmor.options.on_failure</comment>
        <translation>失敗時</translation>
    </message>
    <message>
        <source>When the service gives no verdict (time limit, error, rate limit): block, or let the text through</source>
        <comment>ModelArmor.options.on_failure.help</comment>
        <translation>服務未給出判定時（逾時、出錯、限流）：攔截，或放行文字</translation>
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
        <translation>僅最後一條訊息</translation>
    </message>
    <message>
        <source>Check only the last user message</source>
        <comment>ModelArmor.options.last_message_only.help</comment>
        <translation>只檢查最後一則使用者訊息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>ModelArmor.options.check_tool_results</comment>
        <translation>檢查工具結果</translation>
    </message>
    <message>
        <source>In the output lane: check tool results too</source>
        <comment>ModelArmor.options.check_tool_results.help</comment>
        <translation>在輸出通道中：也檢查工具結果</translation>
    </message>
    <message>
        <source>Template</source>
        <comment>ModelArmor.options.resource</comment>
        <translation>範本</translation>
    </message>
    <message>
        <source>The template: projects/PROJECT/locations/LOCATION/templates/ID</source>
        <comment>ModelArmor.options.resource.help</comment>
        <translation>範本：projects/PROJECT/locations/LOCATION/templates/ID</translation>
    </message>
    <message>
        <source>Check Answers</source>
        <comment>ModelArmor.options.check_answers</comment>
        <translation>檢查回答</translation>
    </message>
    <message>
        <source>In the output lane: check the model&apos;s answer too</source>
        <comment>ModelArmor.options.check_answers.help</comment>
        <translation>在輸出通道中：也檢查模型的回答</translation>
    </message>
    <message>
        <source>{service} flagged the input: {categories} (score {score:.2f})</source>
        <comment>ModelArmor.flagged_input</comment>
        <translation>{service} 標記了輸入：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the answer: {categories} (score {score:.2f})</source>
        <comment>ModelArmor.flagged_answer</comment>
        <translation>{service} 標記了回答：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the result of tool &apos;{tool}&apos;: {categories} (score {score:.2f})</source>
        <comment>ModelArmor.flagged_tool</comment>
        <translation>{service} 標記了工具「{tool}」的結果：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} gave no verdict within {seconds:g} s; blocked (fail-closed)</source>
        <comment>ModelArmor.timeout</comment>
        <translation>{service} 未在 {seconds:g} 秒內給出判定；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} is rate-limiting this key (HTTP 429); blocked (fail-closed)</source>
        <comment>ModelArmor.rate_limited</comment>
        <translation>{service} 正在限制此金鑰的請求頻率（HTTP 429）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} failed (HTTP {status}); blocked (fail-closed)</source>
        <comment>ModelArmor.server_error</comment>
        <translation>{service} 出錯（HTTP {status}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} refused the API key for {host} (HTTP {status}); blocked (fail-closed)</source>
        <comment>ModelArmor.unauthorized</comment>
        <translation>{service} 拒絕了用於 {host} 的 API 金鑰（HTTP {status}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} refused the request (HTTP {status}: {detail}); blocked (fail-closed)</source>
        <comment>ModelArmor.rejected</comment>
        <translation>{service} 拒絕了請求（HTTP {status}：{detail}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} at {host} cannot be reached ({detail}); blocked (fail-closed)</source>
        <comment>ModelArmor.unreachable</comment>
        <translation>無法連線位於 {host} 的 {service}（{detail}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} answered in a form it does not document; blocked (fail-closed)</source>
        <comment>ModelArmor.malformed</comment>
        <translation>{service} 回傳了其文件中沒有的格式；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>No API key for {service} at {host}: save one with the Key button, or set {variable}; blocked (fail-closed)</source>
        <comment>ModelArmor.no_key</comment>
        <translation>沒有用於 {host} 上 {service} 的 API 金鑰：用「金鑰…」按鈕儲存一個，或設定 {variable}；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} has nothing to call: fill in its endpoint (and template); blocked (fail-closed)</source>
        <comment>ModelArmor.no_endpoint</comment>
        <translation>{service} 沒有可呼叫的位址：請填寫其端點（和範本）；已攔截（出錯時攔截）</translation>
    </message>
</context>
<context>
    <name>processor:ModelArmorOptions</name>
    <message>
        <source>the template must read projects/PROJECT/locations/LOCATION/templates/ID</source>
        <comment>ModelArmorOptions.bad_template</comment>
        <translation>範本必須寫成 projects/PROJECT/locations/LOCATION/templates/ID</translation>
    </message>
</context>
<context>
    <name>processor:ModerationOptions</name>
    <message>
        <source>name at least one category</source>
        <comment>ModerationOptions.no_category</comment>
        <translation>請至少指定一個類別</translation>
    </message>
    <message>
        <source>unknown categories {categories}; known: {known}</source>
        <comment>ModerationOptions.unknown_categories</comment>
        <translation>未知的類別 {categories}；可用類別：{known}</translation>
    </message>
</context>
<context>
    <name>processor:ModerationProcessor</name>
    <message>
        <source>Moderation</source>
        <comment>ModerationProcessor.name</comment>
        <translation>內容稽核</translation>
    </message>
    <message>
        <source>Scores content in 11 moderation categories (model judge, or word lists offline).</source>
        <comment>ModerationProcessor.description</comment>
        <translation>按 11 個稽核類別為內容評分（模型判定，或離線詞表）。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>ModerationProcessor.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>A LanguageModel object or a litellm model id string</source>
        <comment>ModerationProcessor.options.model.help</comment>
        <translation>LanguageModel 物件或 litellm 模型 ID 字串</translation>
    </message>
    <message>
        <source>Judge Preset</source>
        <comment>ModerationProcessor.options.judge_preset</comment>
        <translation>判定器預設</translation>
    </message>
    <message>
        <source>A ready-made judge on a local server (sets model and api_base when model is empty)</source>
        <comment>ModerationProcessor.options.judge_preset.help</comment>
        <translation>本機伺服器上的現成判定器（model 為空時設定 model 和 api_base）</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>ModerationProcessor.options.error_strategy</comment>
        <translation>出錯策略</translation>
    </message>
    <message>
        <source>When the judge fails: go on without it (fail-open) or abort (fail-closed)</source>
        <comment>ModerationProcessor.options.error_strategy.help</comment>
        <translation>判定器出錯時：不用它繼續（fail-open）或中止（fail-closed）</translation>
    </message>
    <message>
        <source>Api Base</source>
        <comment>ModerationProcessor.options.api_base</comment>
        <translation>API 位址</translation>
    </message>
    <message>
        <source>The judge&apos;s server, for a local OpenAI-compatible one (http://localhost:11434/v1)</source>
        <comment>ModerationProcessor.options.api_base.help</comment>
        <translation>判定器所在的伺服器，用於本機 OpenAI 相容伺服器（http://localhost:11434/v1）</translation>
    </message>
    <message>
        <source>Timeout</source>
        <comment>ModerationProcessor.options.timeout</comment>
        <translation>逾時</translation>
    </message>
    <message>
        <source>Seconds the judge may take to answer</source>
        <comment>ModerationProcessor.options.timeout.help</comment>
        <translation>判定器回答可用的秒數</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>ModerationProcessor.options.threshold</comment>
        <translation>臨界值</translation>
    </message>
    <message>
        <source>Flag a category scoring at least this</source>
        <comment>ModerationProcessor.options.threshold.help</comment>
        <translation>類別得分達到此值即標記</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>ModerationProcessor.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions appended to the judge&apos;s prompt</source>
        <comment>ModerationProcessor.options.instructions.help</comment>
        <translation>追加到判定器提示詞後的額外指令</translation>
    </message>
    <message>
        <source>Categories</source>
        <comment>ModerationProcessor.options.categories</comment>
        <translation>類別</translation>
    </message>
    <message>
        <source>Categories to check</source>
        <comment>ModerationProcessor.options.categories.help</comment>
        <translation>要檢查的類別</translation>
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
        <translation>包含分數</translation>
    </message>
    <message>
        <source>Add the scores to the abort reason and metadata</source>
        <comment>ModerationProcessor.options.include_scores.help</comment>
        <translation>在中止原因和中繼資料中加入分數</translation>
    </message>
    <message>
        <source>Chunk Window</source>
        <comment>ModerationProcessor.options.chunk_window</comment>
        <translation>資料塊視窗</translation>
    </message>
    <message>
        <source>Stream, with a judge: earlier text parts judged with each one</source>
        <comment>ModerationProcessor.options.chunk_window.help</comment>
        <translation>串流（使用評判模型時）：每次評判時連同之前的文字部分一起評判</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>ModerationProcessor.options.last_message_only</comment>
        <translation>僅最後一條訊息</translation>
    </message>
    <message>
        <source>Check only the last message</source>
        <comment>ModerationProcessor.options.last_message_only.help</comment>
        <translation>只檢查最後一條訊息</translation>
    </message>
    <message>
        <source>Word Lists</source>
        <comment>ModerationProcessor.options.word_lists</comment>
        <translation>詞表</translation>
    </message>
    <message>
        <source>Offline mode: extra phrases per category (matched as whole words)</source>
        <comment>ModerationProcessor.options.word_lists.help</comment>
        <translation>離線模式：每個類別的額外短語（按整詞匹配）</translation>
    </message>
    <message>
        <source>Use Default Word Lists</source>
        <comment>ModerationProcessor.options.use_default_word_lists</comment>
        <translation>使用預設詞表</translation>
    </message>
    <message>
        <source>Offline mode: include the built-in phrases</source>
        <comment>ModerationProcessor.options.use_default_word_lists.help</comment>
        <translation>離線模式：包含內建短語</translation>
    </message>
    <message>
        <source>Content flagged for moderation. Categories: {categories}</source>
        <comment>ModerationProcessor.flagged</comment>
        <translation>內容被稽核標記。類別：{categories}</translation>
    </message>
    <message>
        <source>Content flagged for moderation. Categories: {categories}. Reason: {reason}</source>
        <comment>ModerationProcessor.flagged_with_reason</comment>
        <translation>內容被稽核標記。類別：{categories}。原因：{reason}</translation>
    </message>
    <message>
        <source>Content flagged for moderation. Categories: {categories}. Scores: {scores}</source>
        <comment>ModerationProcessor.flagged_with_scores</comment>
        <translation>內容被稽核標記。類別：{categories}。分數：{scores}</translation>
    </message>
    <message>
        <source>Content flagged for moderation. Categories: {categories}. Reason: {reason}. Scores: {scores}</source>
        <comment>ModerationProcessor.flagged_with_reason_and_scores</comment>
        <translation>內容被稽核標記。類別：{categories}。原因：{reason}。分數：{scores}</translation>
    </message>
    <message>
        <source>Moderation failed because the judge model call failed: {error}</source>
        <comment>ModerationProcessor.judge_failed</comment>
        <translation>內容稽核失敗，因為判定模型呼叫失敗：{error}</translation>
    </message>
</context>
<context>
    <name>processor:OpenAIModeration</name>
    <message>
        <source>OpenAI moderation</source>
        <comment>OpenAIModeration.name</comment>
        <translation>OpenAI 內容審核</translation>
    </message>
    <message>
        <source>Sends each message to OpenAI&apos;s moderation endpoint (hosted) and blocks what it flags as harmful.</source>
        <comment>OpenAIModeration.description</comment>
        <translation>將每則訊息傳送到 OpenAI 的內容審核端點（託管服務），並攔截其標記為有害的內容。</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <comment>OpenAIModeration.options.endpoint</comment>
        <translation>端點</translation>
    </message>
    <message>
        <source>OpenAI&apos;s API base; the API key is bound to it</source>
        <comment>OpenAIModeration.options.endpoint.help</comment>
        <translation>OpenAI 的 API 基礎位址；API 金鑰與它綁定</translation>
    </message>
    <message>
        <source>Time Limit</source>
        <comment>OpenAIModeration.options.time_limit</comment>
        <translation>時間限制</translation>
    </message>
    <message>
        <source>Seconds to wait for a verdict, waits for Retry-After included</source>
        <comment>OpenAIModeration.options.time_limit.help</comment>
        <translation>等待判定的秒數，包括依 Retry-After 等待的時間</translation>
    </message>
    <message>
        <source>On Failure</source>
        <comment>OpenAIModeration.options.on_failure</comment>
        <translation>失敗時</translation>
    </message>
    <message>
        <source>When the service gives no verdict (time limit, error, rate limit): block, or let the text through</source>
        <comment>OpenAIModeration.options.on_failure.help</comment>
        <translation>服務未給出判定時（逾時、出錯、限流）：攔截，或放行文字</translation>
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
        <translation>僅最後一條訊息</translation>
    </message>
    <message>
        <source>Check only the last user message</source>
        <comment>OpenAIModeration.options.last_message_only.help</comment>
        <translation>只檢查最後一則使用者訊息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>OpenAIModeration.options.check_tool_results</comment>
        <translation>檢查工具結果</translation>
    </message>
    <message>
        <source>In the output lane: check tool results too</source>
        <comment>OpenAIModeration.options.check_tool_results.help</comment>
        <translation>在輸出通道中：也檢查工具結果</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>OpenAIModeration.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>The moderation model</source>
        <comment>OpenAIModeration.options.model.help</comment>
        <translation>內容審核模型</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>OpenAIModeration.options.threshold</comment>
        <translation>臨界值</translation>
    </message>
    <message>
        <source>Flag a category scoring at least this (empty: the service&apos;s flags)</source>
        <comment>OpenAIModeration.options.threshold.help</comment>
        <translation>標記分數不低於此值的類別（留空：採用服務自己的標記）</translation>
    </message>
    <message>
        <source>Check Answers</source>
        <comment>OpenAIModeration.options.check_answers</comment>
        <translation>檢查回答</translation>
    </message>
    <message>
        <source>In the output lane: check the model&apos;s answer too</source>
        <comment>OpenAIModeration.options.check_answers.help</comment>
        <translation>在輸出通道中：也檢查模型的回答</translation>
    </message>
    <message>
        <source>{service} flagged the input: {categories} (score {score:.2f})</source>
        <comment>OpenAIModeration.flagged_input</comment>
        <translation>{service} 標記了輸入：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the answer: {categories} (score {score:.2f})</source>
        <comment>OpenAIModeration.flagged_answer</comment>
        <translation>{service} 標記了回答：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} flagged the result of tool &apos;{tool}&apos;: {categories} (score {score:.2f})</source>
        <comment>OpenAIModeration.flagged_tool</comment>
        <translation>{service} 標記了工具「{tool}」的結果：{categories}（分數 {score:.2f}）</translation>
    </message>
    <message>
        <source>{service} gave no verdict within {seconds:g} s; blocked (fail-closed)</source>
        <comment>OpenAIModeration.timeout</comment>
        <translation>{service} 未在 {seconds:g} 秒內給出判定；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} is rate-limiting this key (HTTP 429); blocked (fail-closed)</source>
        <comment>OpenAIModeration.rate_limited</comment>
        <translation>{service} 正在限制此金鑰的請求頻率（HTTP 429）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} failed (HTTP {status}); blocked (fail-closed)</source>
        <comment>OpenAIModeration.server_error</comment>
        <translation>{service} 出錯（HTTP {status}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} refused the API key for {host} (HTTP {status}); blocked (fail-closed)</source>
        <comment>OpenAIModeration.unauthorized</comment>
        <translation>{service} 拒絕了用於 {host} 的 API 金鑰（HTTP {status}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} refused the request (HTTP {status}: {detail}); blocked (fail-closed)</source>
        <comment>OpenAIModeration.rejected</comment>
        <translation>{service} 拒絕了請求（HTTP {status}：{detail}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} at {host} cannot be reached ({detail}); blocked (fail-closed)</source>
        <comment>OpenAIModeration.unreachable</comment>
        <translation>無法連線位於 {host} 的 {service}（{detail}）；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} answered in a form it does not document; blocked (fail-closed)</source>
        <comment>OpenAIModeration.malformed</comment>
        <translation>{service} 回傳了其文件中沒有的格式；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>No API key for {service} at {host}: save one with the Key button, or set {variable}; blocked (fail-closed)</source>
        <comment>OpenAIModeration.no_key</comment>
        <translation>沒有用於 {host} 上 {service} 的 API 金鑰：用「金鑰…」按鈕儲存一個，或設定 {variable}；已攔截（出錯時攔截）</translation>
    </message>
    <message>
        <source>{service} has nothing to call: fill in its endpoint (and template); blocked (fail-closed)</source>
        <comment>OpenAIModeration.no_endpoint</comment>
        <translation>{service} 沒有可呼叫的位址：請填寫其端點（和範本）；已攔截（出錯時攔截）</translation>
    </message>
</context>
<context>
    <name>processor:PIIDetector</name>
    <message>
        <source>PII detector</source>
        <comment>PIIDetector.name</comment>
        <translation>個人資訊偵測器</translation>
    </message>
    <message>
        <source>Finds personal data offline (optionally with a model judge); blocks, warns, filters or redacts.</source>
        <comment>PIIDetector.description</comment>
        <translation>離線尋找個人資料（可選用模型判定）；可攔截、警告、過濾或遮蔽。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>PIIDetector.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>A LanguageModel object or a litellm model id string</source>
        <comment>PIIDetector.options.model.help</comment>
        <translation>LanguageModel 物件或 litellm 模型 ID 字串</translation>
    </message>
    <message>
        <source>Judge Preset</source>
        <comment>PIIDetector.options.judge_preset</comment>
        <translation>判定器預設</translation>
    </message>
    <message>
        <source>A ready-made judge on a local server (sets model and api_base when model is empty)</source>
        <comment>PIIDetector.options.judge_preset.help</comment>
        <translation>本機伺服器上的現成判定器（model 為空時設定 model 和 api_base）</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>PIIDetector.options.error_strategy</comment>
        <translation>出錯策略</translation>
    </message>
    <message>
        <source>When the judge fails: go on without it (fail-open) or abort (fail-closed)</source>
        <comment>PIIDetector.options.error_strategy.help</comment>
        <translation>判定器出錯時：不用它繼續（fail-open）或中止（fail-closed）</translation>
    </message>
    <message>
        <source>Api Base</source>
        <comment>PIIDetector.options.api_base</comment>
        <translation>API 位址</translation>
    </message>
    <message>
        <source>The judge&apos;s server, for a local OpenAI-compatible one (http://localhost:11434/v1)</source>
        <comment>PIIDetector.options.api_base.help</comment>
        <translation>判定器所在的伺服器，用於本機 OpenAI 相容伺服器（http://localhost:11434/v1）</translation>
    </message>
    <message>
        <source>Timeout</source>
        <comment>PIIDetector.options.timeout</comment>
        <translation>逾時</translation>
    </message>
    <message>
        <source>Seconds the judge may take to answer</source>
        <comment>PIIDetector.options.timeout.help</comment>
        <translation>判定器回答可用的秒數</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>PIIDetector.options.threshold</comment>
        <translation>臨界值</translation>
    </message>
    <message>
        <source>Judge detections need this confidence</source>
        <comment>PIIDetector.options.threshold.help</comment>
        <translation>判定器的偵測結果需達到此信賴度</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>PIIDetector.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions appended to the judge&apos;s prompt</source>
        <comment>PIIDetector.options.instructions.help</comment>
        <translation>追加到判定器提示詞後的額外指令</translation>
    </message>
    <message>
        <source>Detection Types</source>
        <comment>PIIDetector.options.detection_types</comment>
        <translation>偵測類型</translation>
    </message>
    <message>
        <source>What to look for (name, address and date-of-birth need a model)</source>
        <comment>PIIDetector.options.detection_types.help</comment>
        <translation>要尋找的內容（姓名、位址和出生日期需要模型）</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>PIIDetector.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block, warn, filter (drop) or redact</source>
        <comment>PIIDetector.options.strategy.help</comment>
        <translation>block、warn、filter（丟棄）或 redact</translation>
    </message>
    <message>
        <source>Redaction Method</source>
        <comment>PIIDetector.options.redaction_method</comment>
        <translation>遮蔽方式</translation>
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
        <translation>遮罩保留原值的長度和分隔符號</translation>
    </message>
    <message>
        <source>Include Detections</source>
        <comment>PIIDetector.options.include_detections</comment>
        <translation>包含偵測結果</translation>
    </message>
    <message>
        <source>Put the detected values in the tripwire metadata</source>
        <comment>PIIDetector.options.include_detections.help</comment>
        <translation>把偵測到的值放入攔截中繼資料</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>PIIDetector.options.last_message_only</comment>
        <translation>僅最後一條訊息</translation>
    </message>
    <message>
        <source>Check only the last message</source>
        <comment>PIIDetector.options.last_message_only.help</comment>
        <translation>只檢查最後一條訊息</translation>
    </message>
    <message>
        <source>Carry Over</source>
        <comment>PIIDetector.options.carry_over</comment>
        <translation>跨塊保留</translation>
    </message>
    <message>
        <source>Stream: most characters held back between chunks</source>
        <comment>PIIDetector.options.carry_over.help</comment>
        <translation>串流：資料塊之間最多暫扣的字元數</translation>
    </message>
    <message>
        <source>Buffer Size</source>
        <comment>PIIDetector.options.buffer_size</comment>
        <translation>緩衝區大小</translation>
    </message>
    <message>
        <source>Stream with a judge: longest segment held</source>
        <comment>PIIDetector.options.buffer_size.help</comment>
        <translation>串流且使用判定器時：暫扣的最長片段</translation>
    </message>
    <message>
        <source>PII detected. Types: {types}</source>
        <comment>PIIDetector.detected</comment>
        <translation>偵測到個人資訊。類型：{types}</translation>
    </message>
    <message>
        <source>PII detection failed because the judge model call failed: {error}</source>
        <comment>PIIDetector.judge_failed</comment>
        <translation>個人資訊偵測失敗，因為判定模型呼叫失敗：{error}</translation>
    </message>
</context>
<context>
    <name>processor:PIIDetectorOptions</name>
    <message>
        <source>name at least one detection type</source>
        <comment>PIIDetectorOptions.no_type</comment>
        <translation>請至少指定一種偵測類型</translation>
    </message>
</context>
<context>
    <name>processor:PrefillErrorHandler</name>
    <message>
        <source>Prefill Error Handler</source>
        <comment>PrefillErrorHandler.name</comment>
        <translation>預填充錯誤處理</translation>
    </message>
    <message>
        <source>Retries once with a &apos;continue&apos; reminder when a provider refuses a prompt ending on the assistant.</source>
        <comment>PrefillErrorHandler.description</comment>
        <translation>當供應商拒絕以助手訊息結尾的提示時，附上「continue」提醒重試一次。</translation>
    </message>
</context>
<context>
    <name>processor:PromptInjectionDetector</name>
    <message>
        <source>Prompt injection detector</source>
        <comment>PromptInjectionDetector.name</comment>
        <translation>提示注入偵測器</translation>
    </message>
    <message>
        <source>A learned model offline, optional model judge; blocks, warns, filters or rewrites attacks.</source>
        <comment>PromptInjectionDetector.description</comment>
        <translation>離線使用訓練好的模型，可選模型判定；可攔截、警告、過濾或改寫攻擊。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>PromptInjectionDetector.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>A LanguageModel object or a litellm model id string</source>
        <comment>PromptInjectionDetector.options.model.help</comment>
        <translation>LanguageModel 物件或 litellm 模型 ID 字串</translation>
    </message>
    <message>
        <source>Judge Preset</source>
        <comment>PromptInjectionDetector.options.judge_preset</comment>
        <translation>判定器預設</translation>
    </message>
    <message>
        <source>A ready-made judge on a local server (sets model and api_base when model is empty)</source>
        <comment>PromptInjectionDetector.options.judge_preset.help</comment>
        <translation>本機伺服器上的現成判定器（model 為空時設定 model 和 api_base）</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>PromptInjectionDetector.options.error_strategy</comment>
        <translation>出錯策略</translation>
    </message>
    <message>
        <source>When the judge fails: go on without it (fail-open) or abort (fail-closed)</source>
        <comment>PromptInjectionDetector.options.error_strategy.help</comment>
        <translation>判定器出錯時：不用它繼續（fail-open）或中止（fail-closed）</translation>
    </message>
    <message>
        <source>Api Base</source>
        <comment>PromptInjectionDetector.options.api_base</comment>
        <translation>API 位址</translation>
    </message>
    <message>
        <source>The judge&apos;s server, for a local OpenAI-compatible one (http://localhost:11434/v1)</source>
        <comment>PromptInjectionDetector.options.api_base.help</comment>
        <translation>判定器所在的伺服器，用於本機 OpenAI 相容伺服器（http://localhost:11434/v1）</translation>
    </message>
    <message>
        <source>Timeout</source>
        <comment>PromptInjectionDetector.options.timeout</comment>
        <translation>逾時</translation>
    </message>
    <message>
        <source>Seconds the judge may take to answer</source>
        <comment>PromptInjectionDetector.options.timeout.help</comment>
        <translation>判定器回答可用的秒數</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>PromptInjectionDetector.options.threshold</comment>
        <translation>臨界值</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>PromptInjectionDetector.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions appended to the judge&apos;s prompt</source>
        <comment>PromptInjectionDetector.options.instructions.help</comment>
        <translation>追加到判定器提示詞後的額外指令</translation>
    </message>
    <message>
        <source>Detection Types</source>
        <comment>PromptInjectionDetector.options.detection_types</comment>
        <translation>偵測類型</translation>
    </message>
    <message>
        <source>Which attacks to look for</source>
        <comment>PromptInjectionDetector.options.detection_types.help</comment>
        <translation>要尋找哪些攻擊</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>PromptInjectionDetector.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block, warn, filter (drop the message) or rewrite</source>
        <comment>PromptInjectionDetector.options.strategy.help</comment>
        <translation>block、warn、filter（丟棄訊息）或 rewrite</translation>
    </message>
    <message>
        <source>Judge Format</source>
        <comment>PromptInjectionDetector.options.judge_format</comment>
        <translation>判定器格式</translation>
    </message>
    <message>
        <source>How the judge answers: json (any chat model) or a guard model&apos;s own format (llama-guard, prompt-guard, shieldgemma, qwen3guard)</source>
        <comment>PromptInjectionDetector.options.judge_format.help</comment>
        <translation>判定器的回答格式：json（任何聊天模型）或護欄模型自身的格式（llama-guard、prompt-guard、shieldgemma、qwen3guard）</translation>
    </message>
    <message>
        <source>Judge Mode</source>
        <comment>PromptInjectionDetector.options.judge_mode</comment>
        <translation>判定模式</translation>
    </message>
    <message>
        <source>always: the judge decides every text (Mastra&apos;s way); hybrid: the offline scores decide clear cases and the judge only the uncertain ones</source>
        <comment>PromptInjectionDetector.options.judge_mode.help</comment>
        <translation>always：每段文字都由判定器決定（Mastra 的做法）；hybrid：明確的情況由離線分數決定，判定器只處理不確定的情況</translation>
    </message>
    <message>
        <source>Offline scores: learned (the default: the trained model&apos;s calibrated score), heuristics (phrase signals) or both (the higher counts)</source>
        <comment>PromptInjectionDetector.options.offline_scorer.help</comment>
        <translation>離線評分：learned（預設：訓練模型的校準分數）、heuristics（短語訊號）或 both（取較高者）</translation>
    </message>
    <message>
        <source>Hybrid Band</source>
        <comment>PromptInjectionDetector.options.hybrid_band</comment>
        <translation>混合區間</translation>
    </message>
    <message>
        <source>Flag a text when its score reaches this. The learned model&apos;s score is calibrated: the chance that the text is an attack (0.7 flags what is at least 70 % likely); lower catches more, with more false alarms</source>
        <comment>PromptInjectionDetector.options.threshold.help</comment>
        <translation>文字分數達到此值時標記。學習模型的分數經過校準：即該文字是攻擊的機率（0.7 會標記至少有 70% 可能是攻擊的文字）；調低可攔截更多攻擊，但誤報也更多</translation>
    </message>
    <message>
        <source>hybrid: offline scores in [low, high) are uncertain and go to the judge; below low passes, at or above high is flagged without asking</source>
        <comment>PromptInjectionDetector.options.hybrid_band.help</comment>
        <translation>hybrid：離線得分在 [下限, 上限) 內視為不確定，交給判定器；低於下限直接通過，達到或高於上限不經詢問直接標記</translation>
    </message>
    <message>
        <source>Offline Scorer</source>
        <comment>PromptInjectionDetector.options.offline_scorer</comment>
        <translation>離線評分方式</translation>
    </message>
    <message>
        <source>Include Scores</source>
        <comment>PromptInjectionDetector.options.include_scores</comment>
        <translation>包含分數</translation>
    </message>
    <message>
        <source>Put the per-type scores in the tripwire metadata</source>
        <comment>PromptInjectionDetector.options.include_scores.help</comment>
        <translation>把各類型的得分放入攔截中繼資料</translation>
    </message>
    <message>
        <source>Last Message Only</source>
        <comment>PromptInjectionDetector.options.last_message_only</comment>
        <translation>僅最後一條訊息</translation>
    </message>
    <message>
        <source>Check only the last message</source>
        <comment>PromptInjectionDetector.options.last_message_only.help</comment>
        <translation>只檢查最後一條訊息</translation>
    </message>
    <message>
        <source>Check Tool Results</source>
        <comment>PromptInjectionDetector.options.check_tool_results</comment>
        <translation>檢查工具結果</translation>
    </message>
    <message>
        <source>In the output lane: scan tool results too</source>
        <comment>PromptInjectionDetector.options.check_tool_results.help</comment>
        <translation>在輸出通道中：同時掃描工具結果</translation>
    </message>
    <message>
        <source>Prompt injection detected. Types: {types}</source>
        <comment>PromptInjectionDetector.detected</comment>
        <translation>偵測到提示注入。類型：{types}</translation>
    </message>
    <message>
        <source>Prompt injection detected. Types: {types}. Reason: {reason}</source>
        <comment>PromptInjectionDetector.detected_with_reason</comment>
        <translation>偵測到提示注入。類型：{types}。原因：{reason}</translation>
    </message>
    <message>
        <source>Prompt injection detected. Types: {types} (in the result of tool &apos;{tool}&apos;)</source>
        <comment>PromptInjectionDetector.detected_in_tool</comment>
        <translation>偵測到提示注入。類型：{types}（位於工具「{tool}」的結果中）</translation>
    </message>
    <message>
        <source>Prompt injection detected. Types: {types} (in the result of tool &apos;{tool}&apos;). Reason: {reason}</source>
        <comment>PromptInjectionDetector.detected_in_tool_with_reason</comment>
        <translation>偵測到提示注入。類型：{types}（位於工具「{tool}」的結果中）。原因：{reason}</translation>
    </message>
    <message>
        <source>Prompt injection detection failed because the judge model call failed: {error}</source>
        <comment>PromptInjectionDetector.judge_failed</comment>
        <translation>提示注入偵測失敗，因為判定模型呼叫失敗：{error}</translation>
    </message>
</context>
<context>
    <name>processor:PromptInjectionDetectorOptions</name>
    <message>
        <source>name at least one detection type</source>
        <comment>PromptInjectionDetectorOptions.no_type</comment>
        <translation>請至少指定一種偵測類型</translation>
    </message>
    <message>
        <source>give two scores 0 &lt;= low &lt;= high &lt;= 1</source>
        <comment>PromptInjectionDetectorOptions.band_order</comment>
        <translation>請給出兩個分數，滿足 0 &lt;= 下限 &lt;= 上限 &lt;= 1</translation>
    </message>
</context>
<context>
    <name>processor:RegexFilter</name>
    <message>
        <source>Regex Filter</source>
        <comment>RegexFilter.name</comment>
        <translation>正規過濾器</translation>
    </message>
    <message>
        <source>Blocks, redacts or flags text matching regex rules and presets (PII, secrets, URLs); no model.</source>
        <comment>RegexFilter.description</comment>
        <translation>攔截、遮蔽或標記與正規規則及預設（個人資訊、金鑰、URL）匹配的文字；無需模型。</translation>
    </message>
    <message>
        <source>Rules</source>
        <comment>RegexFilter.options.rules</comment>
        <translation>規則</translation>
    </message>
    <message>
        <source>Custom rules: a name, a pattern and a replacement.</source>
        <comment>RegexFilter.options.rules.help</comment>
        <translation>自訂規則：名稱、模式和替換內容。</translation>
    </message>
    <message>
        <source>Presets</source>
        <comment>RegexFilter.options.presets</comment>
        <translation>預設</translation>
    </message>
    <message>
        <source>Built-in rule sets: pii (e-mails, phones, cards, SSNs, IBANs, IPs), secrets (API keys, tokens, private keys), urls.</source>
        <comment>RegexFilter.options.presets.help</comment>
        <translation>內建規則集：pii（電子郵件、電話、卡號、社會安全碼、IBAN、IP）、secrets（API 金鑰、詞元、私鑰）、urls。</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>RegexFilter.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block: abort the run; redact: replace matches; warn: log and report only.</source>
        <comment>RegexFilter.options.strategy.help</comment>
        <translation>block：中止執行；redact：替換匹配內容；warn：僅記錄並報告。</translation>
    </message>
    <message>
        <source>Phase</source>
        <comment>RegexFilter.options.phase</comment>
        <translation>階段</translation>
    </message>
    <message>
        <source>Check the input, the output (stream and result), or both.</source>
        <comment>RegexFilter.options.phase.help</comment>
        <translation>檢查輸入、輸出（串流和結果），或兩者都檢查。</translation>
    </message>
    <message>
        <source>Include Redacted Values</source>
        <comment>RegexFilter.options.include_redacted_values</comment>
        <translation>包含遮蔽前的值</translation>
    </message>
    <message>
        <source>Put the redacted text in violation reports (keep off unless the audit log is as protected as the data).</source>
        <comment>RegexFilter.options.include_redacted_values.help</comment>
        <translation>把被遮蔽的文字放入違規報告（除非稽核日誌與資料同等受保護，否則請保持關閉）。</translation>
    </message>
    <message>
        <source>Stream Carryover Size</source>
        <comment>RegexFilter.options.stream_carryover_size</comment>
        <translation>串流跨塊保留大小</translation>
    </message>
    <message>
        <source>Characters held back while streaming so a match split across chunks is caught whole; at least the longest match a rule can have.</source>
        <comment>RegexFilter.options.stream_carryover_size.help</comment>
        <translation>串流輸出時暫扣的字元數，使跨資料塊的匹配能被完整捕獲；至少為規則可能匹配的最長長度。</translation>
    </message>
    <message>
        <source>Regex filter: blocked {context} matching patterns: {names}</source>
        <comment>RegexFilter.blocked</comment>
        <translation>正規過濾器：已攔截匹配以下模式的 {context}：{names}</translation>
    </message>
    <message>
        <source>Regex filter: matched patterns: {names}</source>
        <comment>RegexFilter.warn_report</comment>
        <translation>正規過濾器：比對到以下模式：{names}</translation>
    </message>
</context>
<context>
    <name>processor:RegexFilterOptions</name>
    <message>
        <source>RegexFilter needs at least one rule or preset</source>
        <comment>RegexFilterOptions.needs_rule</comment>
        <translation>RegexFilter 至少需要一條規則或一個預設</translation>
    </message>
</context>
<context>
    <name>processor:ResponseCache</name>
    <message>
        <source>Response Cache</source>
        <comment>ResponseCache.name</comment>
        <translation>回答快取</translation>
    </message>
    <message>
        <source>Replays a cached answer for a repeated prompt instead of calling the model again.</source>
        <comment>ResponseCache.description</comment>
        <translation>對重複的提示重放快取的回答，而不再呼叫模型。</translation>
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
        <translation>範圍</translation>
    </message>
    <message>
        <source>Who shares answers: one user (resource), one conversation (thread), or everyone (global).</source>
        <comment>ResponseCache.options.scope.help</comment>
        <translation>誰共享回答：一個使用者（resource）、一個對話（thread）或所有人（global）。</translation>
    </message>
    <message>
        <source>Key</source>
        <comment>ResponseCache.options.key</comment>
        <translation>鍵</translation>
    </message>
    <message>
        <source>A fixed cache key for every call (normally computed).</source>
        <comment>ResponseCache.options.key.help</comment>
        <translation>所有呼叫使用的固定快取鍵（通常自動計算）。</translation>
    </message>
    <message>
        <source>Agent Id</source>
        <comment>ResponseCache.options.agent_id</comment>
        <translation>代理 ID</translation>
    </message>
    <message>
        <source>Part of the key, so two agents never share answers.</source>
        <comment>ResponseCache.options.agent_id.help</comment>
        <translation>作為鍵的一部分，使兩個代理永不共享回答。</translation>
    </message>
    <message>
        <source>Bust</source>
        <comment>ResponseCache.options.bust</comment>
        <translation>繞過快取</translation>
    </message>
    <message>
        <source>Never read the cache; every answer is stored again.</source>
        <comment>ResponseCache.options.bust.help</comment>
        <translation>從不讀取快取；每個回答都重新儲存。</translation>
    </message>
    <message>
        <source>Max Entries</source>
        <comment>ResponseCache.options.max_entries</comment>
        <translation>最大項目數</translation>
    </message>
    <message>
        <source>Capacity of the built-in in-memory cache.</source>
        <comment>ResponseCache.options.max_entries.help</comment>
        <translation>內建記憶體快取的容量。</translation>
    </message>
</context>
<context>
    <name>processor:StreamErrorRetry</name>
    <message>
        <source>Stream Error Retry</source>
        <comment>StreamErrorRetry.name</comment>
        <translation>串流錯誤重試</translation>
    </message>
    <message>
        <source>Retries model calls that failed transiently (429, 5xx, dropped streams); never 401/403.</source>
        <comment>StreamErrorRetry.description</comment>
        <translation>重試暫時性失敗的模型呼叫（429、5xx、中斷的串流）；從不重試 401/403。</translation>
    </message>
    <message>
        <source>Max Retries</source>
        <comment>StreamErrorRetry.options.max_retries</comment>
        <translation>最大重試次數</translation>
    </message>
    <message>
        <source>How many times one failure may be retried.</source>
        <comment>StreamErrorRetry.options.max_retries.help</comment>
        <translation>一次失敗最多可重試多少次。</translation>
    </message>
    <message>
        <source>Matchers</source>
        <comment>StreamErrorRetry.options.matchers</comment>
        <translation>匹配規則</translation>
    </message>
    <message>
        <source>Extra regular expressions (case-insensitive): an error whose message matches is retried.</source>
        <comment>StreamErrorRetry.options.matchers.help</comment>
        <translation>額外的正規表示式（不區分大小寫）：訊息與之匹配的錯誤會被重試。</translation>
    </message>
    <message>
        <source>Retry Unknown Errors</source>
        <comment>StreamErrorRetry.options.retry_unknown_errors</comment>
        <translation>重試未知錯誤</translation>
    </message>
    <message>
        <source>Retry any error except authentication and permission failures.</source>
        <comment>StreamErrorRetry.options.retry_unknown_errors.help</comment>
        <translation>重試除認證和權限失敗以外的任何錯誤。</translation>
    </message>
    <message>
        <source>Delay Ms</source>
        <comment>StreamErrorRetry.options.delay_ms</comment>
        <translation>延遲（毫秒）</translation>
    </message>
    <message>
        <source>Wait before the first retry (no Retry-After).</source>
        <comment>StreamErrorRetry.options.delay_ms.help</comment>
        <translation>第一次重試前的等待時間（沒有 Retry-After 時）。</translation>
    </message>
    <message>
        <source>Backoff</source>
        <comment>StreamErrorRetry.options.backoff</comment>
        <translation>退避倍數</translation>
    </message>
    <message>
        <source>Each later retry waits this many times longer.</source>
        <comment>StreamErrorRetry.options.backoff.help</comment>
        <translation>之後每次重試的等待時間乘以此倍數。</translation>
    </message>
    <message>
        <source>Max Delay Ms</source>
        <comment>StreamErrorRetry.options.max_delay_ms</comment>
        <translation>最大延遲（毫秒）</translation>
    </message>
    <message>
        <source>The longest computed wait.</source>
        <comment>StreamErrorRetry.options.max_delay_ms.help</comment>
        <translation>計算出的最長等待時間。</translation>
    </message>
    <message>
        <source>Max Retry After Ms</source>
        <comment>StreamErrorRetry.options.max_retry_after_ms</comment>
        <translation>最大 Retry-After（毫秒）</translation>
    </message>
    <message>
        <source>The longest wait a provider&apos;s Retry-After may impose.</source>
        <comment>StreamErrorRetry.options.max_retry_after_ms.help</comment>
        <translation>供應商的 Retry-After 最多可要求等待的時間。</translation>
    </message>
</context>
<context>
    <name>processor:StructuredOutput</name>
    <message>
        <source>Structured output</source>
        <comment>StructuredOutput.name</comment>
        <translation>結構化輸出</translation>
    </message>
    <message>
        <source>Validates the final answer against a JSON schema or pydantic model; retries with feedback.</source>
        <comment>StructuredOutput.description</comment>
        <translation>按 JSON 模式或 pydantic 模型校驗最終回答；附帶回饋重試。</translation>
    </message>
    <message>
        <source>Schema</source>
        <comment>StructuredOutput.options.schema</comment>
        <translation>模式</translation>
    </message>
    <message>
        <source>A JSON schema (dict) or a pydantic model class</source>
        <comment>StructuredOutput.options.schema.help</comment>
        <translation>JSON 模式（dict）或 pydantic 模型類</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>StructuredOutput.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>Optional structuring model: rewrites invalid text into the schema</source>
        <comment>StructuredOutput.options.model.help</comment>
        <translation>可選的結構化模型：把無效文字改寫成符合模式的內容</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>StructuredOutput.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions for the structuring model</source>
        <comment>StructuredOutput.options.instructions.help</comment>
        <translation>給結構化模型的額外指令</translation>
    </message>
    <message>
        <source>On Invalid</source>
        <comment>StructuredOutput.options.on_invalid</comment>
        <translation>無效時</translation>
    </message>
    <message>
        <source>retry (abort with feedback), warn (log) or fallback (use fallback_value)</source>
        <comment>StructuredOutput.options.on_invalid.help</comment>
        <translation>retry（附帶回饋中止）、warn（記錄）或 fallback（使用 fallback_value）</translation>
    </message>
    <message>
        <source>Fallback Value</source>
        <comment>StructuredOutput.options.fallback_value</comment>
        <translation>後備值</translation>
    </message>
    <message>
        <source>The object used when on_invalid is &apos;fallback&apos;</source>
        <comment>StructuredOutput.options.fallback_value.help</comment>
        <translation>on_invalid 為 fallback 時使用的物件</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>StructuredOutput.options.error_strategy</comment>
        <translation>出錯策略</translation>
    </message>
    <message>
        <source>Structuring model failure: treat as invalid (fail-open) or abort</source>
        <comment>StructuredOutput.options.error_strategy.help</comment>
        <translation>結構化模型出錯時：視為無效（fail-open）或中止</translation>
    </message>
    <message>
        <source>Structured output failed: the structuring model failed: {error}</source>
        <comment>StructuredOutput.structuring_failed</comment>
        <translation>結構化輸出失敗：結構化模型出錯：{error}</translation>
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
        <translation>必須是 JSON Schema（字典）或 pydantic 模型類別</translation>
    </message>
    <message>
        <source>must be a model id string (e.g. &apos;openai/gpt-4o-mini&apos;) or a LanguageModel object</source>
        <comment>StructuredOutputOptions.model_kind</comment>
        <translation>必須是模型 ID 字串（如 &apos;openai/gpt-4o-mini&apos;）或 LanguageModel 物件</translation>
    </message>
</context>
<context>
    <name>processor:SystemPromptScrubber</name>
    <message>
        <source>System prompt scrubber</source>
        <comment>SystemPromptScrubber.name</comment>
        <translation>系統提示詞清除器</translation>
    </message>
    <message>
        <source>Catches the agent&apos;s own instructions leaking into its output; blocks, warns, filters or redacts.</source>
        <comment>SystemPromptScrubber.description</comment>
        <translation>捕捉代理自身指令洩露到輸出中的情況；可攔截、警告、過濾或遮蔽。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>SystemPromptScrubber.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>A LanguageModel object or a litellm model id string</source>
        <comment>SystemPromptScrubber.options.model.help</comment>
        <translation>LanguageModel 物件或 litellm 模型 ID 字串</translation>
    </message>
    <message>
        <source>Judge Preset</source>
        <comment>SystemPromptScrubber.options.judge_preset</comment>
        <translation>判定器預設</translation>
    </message>
    <message>
        <source>A ready-made judge on a local server (sets model and api_base when model is empty)</source>
        <comment>SystemPromptScrubber.options.judge_preset.help</comment>
        <translation>本機伺服器上的現成判定器（model 為空時設定 model 和 api_base）</translation>
    </message>
    <message>
        <source>Error Strategy</source>
        <comment>SystemPromptScrubber.options.error_strategy</comment>
        <translation>出錯策略</translation>
    </message>
    <message>
        <source>When the judge fails: go on without it (fail-open) or abort (fail-closed)</source>
        <comment>SystemPromptScrubber.options.error_strategy.help</comment>
        <translation>判定器出錯時：不用它繼續（fail-open）或中止（fail-closed）</translation>
    </message>
    <message>
        <source>Api Base</source>
        <comment>SystemPromptScrubber.options.api_base</comment>
        <translation>API 位址</translation>
    </message>
    <message>
        <source>The judge&apos;s server, for a local OpenAI-compatible one (http://localhost:11434/v1)</source>
        <comment>SystemPromptScrubber.options.api_base.help</comment>
        <translation>判定器所在的伺服器，用於本機 OpenAI 相容伺服器（http://localhost:11434/v1）</translation>
    </message>
    <message>
        <source>Timeout</source>
        <comment>SystemPromptScrubber.options.timeout</comment>
        <translation>逾時</translation>
    </message>
    <message>
        <source>Seconds the judge may take to answer</source>
        <comment>SystemPromptScrubber.options.timeout.help</comment>
        <translation>判定器回答可用的秒數</translation>
    </message>
    <message>
        <source>Threshold</source>
        <comment>SystemPromptScrubber.options.threshold</comment>
        <translation>臨界值</translation>
    </message>
    <message>
        <source>Judge confidence needed (with a model)</source>
        <comment>SystemPromptScrubber.options.threshold.help</comment>
        <translation>所需的判定信賴度（使用模型時）</translation>
    </message>
    <message>
        <source>Instructions</source>
        <comment>SystemPromptScrubber.options.instructions</comment>
        <translation>指令</translation>
    </message>
    <message>
        <source>Extra instructions appended to the judge&apos;s prompt</source>
        <comment>SystemPromptScrubber.options.instructions.help</comment>
        <translation>追加到判定器提示詞後的額外指令</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>SystemPromptScrubber.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>block, warn, filter (drop) or redact</source>
        <comment>SystemPromptScrubber.options.strategy.help</comment>
        <translation>block、warn、filter（丟棄）或 redact</translation>
    </message>
    <message>
        <source>Redaction Method</source>
        <comment>SystemPromptScrubber.options.redaction_method</comment>
        <translation>遮蔽方式</translation>
    </message>
    <message>
        <source>How leaks are hidden</source>
        <comment>SystemPromptScrubber.options.redaction_method.help</comment>
        <translation>如何隱藏洩露內容</translation>
    </message>
    <message>
        <source>Placeholder Text</source>
        <comment>SystemPromptScrubber.options.placeholder_text</comment>
        <translation>預留位置文字</translation>
    </message>
    <message>
        <source>What replaces a leak (placeholder method)</source>
        <comment>SystemPromptScrubber.options.placeholder_text.help</comment>
        <translation>替換洩露內容的文字（placeholder 方式）</translation>
    </message>
    <message>
        <source>Custom Patterns</source>
        <comment>SystemPromptScrubber.options.custom_patterns</comment>
        <translation>自訂模式</translation>
    </message>
    <message>
        <source>Regular expressions that also count as leaks</source>
        <comment>SystemPromptScrubber.options.custom_patterns.help</comment>
        <translation>同樣算作洩露的正規表示式</translation>
    </message>
    <message>
        <source>Min Overlap Words</source>
        <comment>SystemPromptScrubber.options.min_overlap_words</comment>
        <translation>最少重疊詞數</translation>
    </message>
    <message>
        <source>Consecutive shared words that make a leak</source>
        <comment>SystemPromptScrubber.options.min_overlap_words.help</comment>
        <translation>構成洩露的連續相同詞數</translation>
    </message>
    <message>
        <source>Include Detections</source>
        <comment>SystemPromptScrubber.options.include_detections</comment>
        <translation>包含偵測結果</translation>
    </message>
    <message>
        <source>Put the leaked passages in the tripwire metadata</source>
        <comment>SystemPromptScrubber.options.include_detections.help</comment>
        <translation>把洩露的段落放入攔截中繼資料</translation>
    </message>
    <message>
        <source>Carry Over</source>
        <comment>SystemPromptScrubber.options.carry_over</comment>
        <translation>跨塊保留</translation>
    </message>
    <message>
        <source>Stream: characters held back for custom patterns</source>
        <comment>SystemPromptScrubber.options.carry_over.help</comment>
        <translation>串流：為自訂模式暫扣的字元數</translation>
    </message>
    <message>
        <source>System prompt detected: {kinds}</source>
        <comment>SystemPromptScrubber.detected</comment>
        <translation>偵測到系統提示詞：{kinds}</translation>
    </message>
    <message>
        <source>System prompt detection failed because the judge model call failed: {error}</source>
        <comment>SystemPromptScrubber.judge_failed</comment>
        <translation>系統提示偵測失敗，因為判定模型呼叫失敗：{error}</translation>
    </message>
</context>
<context>
    <name>processor:TokenLimiter</name>
    <message>
        <source>Token Limiter</source>
        <comment>TokenLimiter.name</comment>
        <translation>詞元限制器</translation>
    </message>
    <message>
        <source>Keeps the prompt within a token budget and caps the answer&apos;s tokens (truncate or abort).</source>
        <comment>TokenLimiter.description</comment>
        <translation>讓提示保持在詞元預算內，並限制回答的詞元數（截斷或中止）。</translation>
    </message>
    <message>
        <source>Limit</source>
        <comment>TokenLimiter.options.limit</comment>
        <translation>上限</translation>
    </message>
    <message>
        <source>The token budget (prompt or answer).</source>
        <comment>TokenLimiter.options.limit.help</comment>
        <translation>詞元預算（提示或回答）。</translation>
    </message>
    <message>
        <source>Strategy</source>
        <comment>TokenLimiter.options.strategy</comment>
        <translation>策略</translation>
    </message>
    <message>
        <source>Over the output limit: drop the rest (truncate) or end the run (abort).</source>
        <comment>TokenLimiter.options.strategy.help</comment>
        <translation>超出輸出上限時：丟棄其餘部分（truncate）或結束執行（abort）。</translation>
    </message>
    <message>
        <source>Count Mode</source>
        <comment>TokenLimiter.options.count_mode</comment>
        <translation>計數方式</translation>
    </message>
    <message>
        <source>Count the whole answer so far (cumulative) or each chunk alone (part).</source>
        <comment>TokenLimiter.options.count_mode.help</comment>
        <translation>累計計算到目前為止的整個回答（cumulative），或單獨計算每個資料塊（part）。</translation>
    </message>
    <message>
        <source>Trim Mode</source>
        <comment>TokenLimiter.options.trim_mode</comment>
        <translation>裁剪方式</translation>
    </message>
    <message>
        <source>Prompt trimming: skip what does not fit and keep looking (best-fit), stop at the first message that does not fit (contiguous), or remove only remembered history (memory-only).</source>
        <comment>TokenLimiter.options.trim_mode.help</comment>
        <translation>提示裁剪：跳過放不下的並繼續尋找（best-fit）、在第一條放不下的訊息處停止（contiguous），或只移除記憶中的歷史（memory-only）。</translation>
    </message>
    <message>
        <source>Model</source>
        <comment>TokenLimiter.options.model</comment>
        <translation>模型</translation>
    </message>
    <message>
        <source>Model whose tokenizer counts tokens (e.g. gpt-4o); empty: the run&apos;s model.</source>
        <comment>TokenLimiter.options.model.help</comment>
        <translation>用其分詞器計算詞元的模型（如 gpt-4o）；為空：使用本次執行的模型。</translation>
    </message>
    <message>
        <source>Token limit of {limit} exceeded (current: {current})</source>
        <comment>TokenLimiter.limit_exceeded</comment>
        <translation>超出 {limit} 個詞元的上限（當前：{current}）</translation>
    </message>
    <message>
        <source>TokenLimiter: there are no messages to send</source>
        <comment>TokenLimiter.no_messages</comment>
        <translation>TokenLimiter：沒有可傳送的訊息</translation>
    </message>
    <message>
        <source>TokenLimiter: the system messages alone use {used} tokens, over the limit of {limit}</source>
        <comment>TokenLimiter.system_over_limit</comment>
        <translation>TokenLimiter：僅系統訊息就用了 {used} 個詞元，超出 {limit} 的上限</translation>
    </message>
    <message>
        <source>TokenLimiter: no message fits in the limit of {limit} tokens ({used} used by system messages)</source>
        <comment>TokenLimiter.nothing_fits</comment>
        <translation>TokenLimiter：{limit} 個詞元的上限內放不下任何訊息（系統訊息已用 {used} 個）</translation>
    </message>
</context>
<context>
    <name>processor:ToolCallFilter</name>
    <message>
        <source>Tool Call Filter</source>
        <comment>ToolCallFilter.name</comment>
        <translation>工具呼叫過濾器</translation>
    </message>
    <message>
        <source>Leaves earlier tool calls and their results out of the prompt (history itself is untouched).</source>
        <comment>ToolCallFilter.description</comment>
        <translation>把較早的工具呼叫及其結果排除在提示之外（歷史本身不變）。</translation>
    </message>
    <message>
        <source>Exclude</source>
        <comment>ToolCallFilter.options.exclude</comment>
        <translation>排除</translation>
    </message>
    <message>
        <source>Tool names whose calls are filtered; empty or unset: every tool.</source>
        <comment>ToolCallFilter.options.exclude.help</comment>
        <translation>要過濾其呼叫的工具名；為空或未設定：所有工具。</translation>
    </message>
    <message>
        <source>Filter After Tool Steps</source>
        <comment>ToolCallFilter.options.filter_after_tool_steps</comment>
        <translation>保留最近工具步數</translation>
    </message>
    <message>
        <source>Keep the tool calls of the last N tool steps (this call&apos;s included) and filter older ones; unset: filter only the history from before this call.</source>
        <comment>ToolCallFilter.options.filter_after_tool_steps.help</comment>
        <translation>保留最近 N 個工具步驟（含本次呼叫）的工具呼叫，過濾更早的；未設定：只過濾本次呼叫之前的歷史。</translation>
    </message>
    <message>
        <source>Preserve Model Output</source>
        <comment>ToolCallFilter.options.preserve_model_output</comment>
        <translation>保留模型輸出</translation>
    </message>
    <message>
        <source>Replace a filtered call and result by the text &apos;&lt;tool&gt; result: &lt;output&gt;&apos;.</source>
        <comment>ToolCallFilter.options.preserve_model_output.help</comment>
        <translation>把被過濾的呼叫和結果替換為文字「&lt;tool&gt; result: &lt;output&gt;」。</translation>
    </message>
</context>
<context>
    <name>processor:UnicodeNormalizer</name>
    <message>
        <source>Unicode Normalizer</source>
        <comment>UnicodeNormalizer.name</comment>
        <translation>Unicode 規範化</translation>
    </message>
    <message>
        <source>NFKC-normalises input text, optionally strips invisible control characters, tidies whitespace.</source>
        <comment>UnicodeNormalizer.description</comment>
        <translation>對輸入文字做 NFKC 規範化，可選去除不可見的控制字元，並整理空白。</translation>
    </message>
    <message>
        <source>Strip Control Chars</source>
        <comment>UnicodeNormalizer.options.strip_control_chars</comment>
        <translation>去除控制字元</translation>
    </message>
    <message>
        <source>Remove control and invisible format characters (tab, line feed and carriage return stay).</source>
        <comment>UnicodeNormalizer.options.strip_control_chars.help</comment>
        <translation>去除控制字元和不可見的格式字元（製表符、換行符和回車符保留）。</translation>
    </message>
    <message>
        <source>Preserve Emojis</source>
        <comment>UnicodeNormalizer.options.preserve_emojis</comment>
        <translation>保留表情符號</translation>
    </message>
    <message>
        <source>When stripping, keep the zero-width joiners and variation selectors emoji sequences need.</source>
        <comment>UnicodeNormalizer.options.preserve_emojis.help</comment>
        <translation>去除時保留表情符號序列所需的零寬連接符和變體選擇符。</translation>
    </message>
    <message>
        <source>Collapse Whitespace</source>
        <comment>UnicodeNormalizer.options.collapse_whitespace</comment>
        <translation>合併空白</translation>
    </message>
    <message>
        <source>Turn CRLF/CR into LF, collapse runs of line feeds to one and runs of spaces/tabs to one space.</source>
        <comment>UnicodeNormalizer.options.collapse_whitespace.help</comment>
        <translation>把 CRLF/CR 轉為 LF，將連續換行合併為一個，連續空格/製表符合併為一個空格。</translation>
    </message>
    <message>
        <source>Trim</source>
        <comment>UnicodeNormalizer.options.trim</comment>
        <translation>去除首尾空白</translation>
    </message>
    <message>
        <source>Remove leading and trailing whitespace.</source>
        <comment>UnicodeNormalizer.options.trim.help</comment>
        <translation>去除開頭和結尾的空白。</translation>
    </message>
    <message>
        <source>Preserve CJK Punctuation</source>
        <comment>UnicodeNormalizer.options.preserve_cjk_punctuation</comment>
        <translation>保留中日韓標點</translation>
    </message>
    <message>
        <source>Keep full-width punctuation (，：！？（）……) as written; full-width letters and digits are still folded.</source>
        <comment>UnicodeNormalizer.options.preserve_cjk_punctuation.help</comment>
        <translation>按原樣保留全形標點（，：！？（）……）；全形字母和數字仍會折疊。</translation>
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
        <translation>示範（離線）</translation>
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
