"""Hosted guard services as built-in processors: Lakera Guard, Azure AI Content Safety Prompt Shields, OpenAI's
moderation endpoint and Google Cloud Model Armor.

Each is one class on :class:`~processors.builtin.guard_services.guard_service.GuardService` (the lanes, the call
through httpx within a time limit, fail-open or fail-closed, the score in the tripwire and the state) with the
service's request and answer (:mod:`.lakera_guard`, :mod:`.azure_prompt_shields`, :mod:`.openai_moderation`,
:mod:`.model_armor`); their API keys come from :mod:`.keys`, bound to the endpoint they were saved for. They are
registered by entry point like every built-in. Importing this package imports no HTTP client.
"""
