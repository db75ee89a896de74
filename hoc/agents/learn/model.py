"""The policy and value network in torch (training only: `heart-of-crown[learn]`), the same layers as
the weight file (`hoc.engine.weights`) and the jitted forward pass."""
from __future__ import annotations

import numpy as np
import torch
from torch import nn

from hoc.engine import weights as nw

NEG = -1e9          # the logit of an illegal action


def features(obs: torch.Tensor) -> torch.Tensor:
    """sign(x) log(1 + |x|) of raw observations (any integer or float dtype), as float32."""
    x = obs.to(torch.float32)
    return torch.sign(x) * torch.log1p(torch.abs(x))


class PolicyValue(nn.Module):
    def __init__(self, n_obs: int, n_actions: int, hidden: tuple[int, int] = (64, 64)):
        super().__init__()
        self.l1 = nn.Linear(n_obs, hidden[0])
        self.l2 = nn.Linear(hidden[0], hidden[1])
        self.policy = nn.Linear(hidden[1], n_actions)
        self.value = nn.Linear(hidden[1], 1)

    def forward(self, obs: torch.Tensor, masks: torch.Tensor | None = None):
        """(logits, value) of raw observations; with masks, illegal actions get logit NEG."""
        h = torch.relu(self.l2(torch.relu(self.l1(features(obs)))))
        logits = self.policy(h)
        if masks is not None:
            logits = logits.masked_fill(~masks.bool(), NEG)
        return logits, self.value(h).squeeze(-1)

    def network(self, meta: dict) -> nw.Network:
        """The weights as a weight file's network."""
        def a(t):
            return t.detach().cpu().numpy().astype(np.float32).copy()

        return nw.Network(a(self.l1.weight.T), a(self.l1.bias), a(self.l2.weight.T), a(self.l2.bias),
                          a(self.policy.weight), a(self.policy.bias), a(self.value.weight[0]), a(self.value.bias),
                          meta=dict(meta))

    @classmethod
    def of(cls, net: nw.Network) -> "PolicyValue":
        n_obs, h1, h2, n_act = net.sizes
        m = cls(n_obs, n_act, (h1, h2))
        with torch.no_grad():
            m.l1.weight.copy_(torch.from_numpy(net.w1.T.copy()))
            m.l1.bias.copy_(torch.from_numpy(net.b1))
            m.l2.weight.copy_(torch.from_numpy(net.w2.T.copy()))
            m.l2.bias.copy_(torch.from_numpy(net.b2))
            m.policy.weight.copy_(torch.from_numpy(net.wp))
            m.policy.bias.copy_(torch.from_numpy(net.bp))
            m.value.weight.copy_(torch.from_numpy(net.wv[None, :]))
            m.value.bias.copy_(torch.from_numpy(net.bv))
        return m
