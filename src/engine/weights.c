/* weights.c - the likelihood ratio of one replica (weights.h). */
#include "weights.h"

#include <math.h>

/* prod over k of theta_k^-N_k exp((theta_k - 1) lambda_k A_k), N_k the
 * arrivals that struck and A_k the time they could strike in (failures and
 * outages: all but the time down; spikes: compute), times the density
 * ratios of the repair times and downtimes drawn (Rubinstein and Kroese
 * 2004, for Poisson processes). */
void tmc_weights_record(const tmc_process_model *m, const tmc_processes *p,
                        double wall_end_s, double deadline_wall_s, double elite_wall_s,
                        tmc_replica *out)
{
    double exposure[TMC_PROCESSES] = {wall_end_s - p->down_s, wall_end_s - p->down_s,
                                      p->spike_exposure_s};
    double log_w = p->failures.repair_log_w + p->downtime_log_w;
    for (int k = 0; k < TMC_PROCESSES; k++)
        if (m->tilt[k] != 1 && m->rate[k] > 0)
            log_w += -p->arrivals[k] * log(m->tilt[k]) +
                     (m->tilt[k] - 1) * m->rate[k] * exposure[k];
    double w = exp(log_w), miss = out->wall_s > deadline_wall_s;
    out->w = w;
    out->w2 = w * w;
    out->w_miss = w * miss;
    out->w2_miss = w * w * miss;
    if (out->wall_s < elite_wall_s)
        return;
    out->ce_w = w;
    for (int k = 0; k < TMC_PROCESSES; k++) {
        out->ce_n[k] = w * p->arrivals[k];
        out->ce_a[k] = w * exposure[k];
    }
    out->ce_n[TMC_TILT_REPAIRS] = w * p->failures.repairs_drawn;
    out->ce_a[TMC_TILT_REPAIRS] = w * p->failures.repair_sum_s;
    out->ce_n[TMC_TILT_DOWNTIMES] = w * p->downtimes_drawn;
    out->ce_a[TMC_TILT_DOWNTIMES] = w * p->downtime_log_sum;
}

int tmc_weights_tiltable(const tmc_process_model *m, int k)
{
    if (k < TMC_PROCESSES && m->trace[k].n > 0) /* a replayed trace has nothing to tilt */
        return 0;
    if (k == TMC_TILT_FAILURES && m->rate[k] > 0 && !tmc_failures_poisson(&m->failures))
        return 0;
    /* only exponential repair times (the manual stage of a pipeline) are tilted */
    return !(k == TMC_TILT_REPAIRS && !tmc_repair_laws[m->failures.repair_kind]->tiltable);
}

int tmc_weights_check(const tmc_process_model *m, const double theta[TMC_TILTS])
{
    for (int k = 0; k < TMC_TILTS; k++)
        if (!(theta[k] > 0 && isfinite(theta[k])) ||
            (theta[k] != 1 && !tmc_weights_tiltable(m, k)))
            return -1;
    return 0;
}
